/**
 * Form schema of a bot menu (command, description, message type and content are
 * required); the command is what Telegram accepts: 1–32 of a-z, 0-9 and _, and not one of the
 * bot's own commands.
 */
import { z } from 'zod'
import { PARSE_MODES } from './api'

export const RESERVED_COMMANDS = ['start', 'help', 'bind', 'unbind', 'balance', 'recharge', 'apikey', 'aff']

export const menuFormSchema = z.object({
  command: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .refine((v) => /^\/?[a-z0-9_]{1,32}$/.test(v), 'telegram:validation.command')
    .refine((v) => !RESERVED_COMMANDS.includes(v.replace(/^\//, '')), 'telegram:validation.reserved'),
  description: z.string().trim().min(1, 'validation.required').max(255, 'telegram:validation.descriptionMax'),
  parse_mode: z.enum(PARSE_MODES, 'validation.required'),
  reply_message: z.string().trim().min(1, 'validation.required').max(4096, 'telegram:validation.messageMax'),
})
export type MenuFormValues = z.infer<typeof menuFormSchema>
