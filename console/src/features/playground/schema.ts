/** Settings of a playground conversation (key, model, system prompt, temperature 0–2, optional max tokens) and their defaults. */
import { z } from 'zod'

/** The `token` value that stands for the hidden playground key. */
export const PLAYGROUND_TOKEN = 'playground'
export const MAX_TOKENS_LIMIT = 1_000_000

export const settingsSchema = z.object({
  token: z.string().min(1, 'playground:settings.errors.key'),
  model: z.string().min(1, 'playground:settings.errors.model'),
  system: z.string().max(20_000, 'playground:settings.errors.systemTooLong'),
  temperature: z.number().min(0).max(2),
  max_tokens: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_TOKENS_LIMIT), 'playground:settings.errors.maxTokens'),
})
export type PlaygroundSettings = z.infer<typeof settingsSchema>

export const DEFAULT_SETTINGS: PlaygroundSettings = {
  token: PLAYGROUND_TOKEN,
  model: '',
  system: '',
  temperature: 1,
  max_tokens: '',
}
