/**
 * The admin's custom bot menus (table telegram_menus): paged list, read, create, update, delete.
 * A command is `^[a-z0-9_]{1,32}$`, unique, and never one of the bot's own commands. Edits are
 * served by the bot only after a reload (apply.ts).
 */
import { count, desc, eq, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../db/client'
import { telegramMenus } from '../db/schema'
import { conflict, notFound } from '../lib/errors'
import { offset, orderBy, page, type ListQuery } from '../lib/paging'
import { RESERVED_COMMANDS } from './bot'
import { PARSE_MODES, type MenuBody, type ParseMode, type TelegramMenu } from '../../shared/contract/telegram'
import { accepting } from '../lib/validate'

export const menuFields = accepting<MenuBody>()(
  z.object({
    command: z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,32}$/, 'must be 1-32 characters of a-z, 0-9 and _')
      .refine((c) => !RESERVED_COMMANDS.has(c), 'is one of the bot\u2019s own commands'),
    description: z.string().trim().min(1, 'Description is required').max(255, 'must be at most 255 characters'),
    parse_mode: z.enum(PARSE_MODES, 'must be one of MarkdownV2, Markdown, HTML, plain'),
    reply_message: z.string().trim().min(1, 'Message content is required').max(4096, 'must be at most 4096 characters'),
  })
)
export const createMenuSchema = menuFields.extend({ id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() })
export const updateMenuSchema = menuFields.extend({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) })

type MenuFields = z.infer<typeof menuFields>
type Menu = typeof telegramMenus.$inferSelect

/** Writes accept only PARSE_MODES; an empty or unknown stored value reads as plain. */
const parseModeOf = (mode: string): ParseMode => PARSE_MODES.find((m) => m === mode) ?? 'plain'

export const menuView = (m: Menu) =>
  ({ id: m.id, command: m.command, description: m.description, parse_mode: parseModeOf(m.parseMode), reply_message: m.replyMessage }) satisfies TelegramMenu

const sortable = { id: telegramMenus.id, command: telegramMenus.command }

export async function listMenus(env: Env, q: ListQuery) {
  const db = createDb(env.DB)
  const prefix = q.keyword ? `${q.keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : ''
  const where = q.keyword ? or(/^\d+$/.test(q.keyword) ? eq(telegramMenus.id, Number(q.keyword)) : undefined, sql`${telegramMenus.command} LIKE ${prefix} ESCAPE '\\'`) : undefined
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(telegramMenus)
      .where(where)
      .orderBy(orderBy(q.order, sortable, desc(telegramMenus.id)))
      .limit(q.page_size)
      .offset(offset(q)),
    db.select({ n: count() }).from(telegramMenus).where(where),
  ])
  return page(q, rows.map(menuView), total?.n ?? 0)
}

export async function getMenu(env: Env, id: number) {
  const [row] = await createDb(env.DB).select().from(telegramMenus).where(eq(telegramMenus.id, id)).limit(1)
  if (!row) throw notFound('Menu not found')
  return menuView(row)
}

async function assertFree(env: Env, command: string, exceptId?: number) {
  const [row] = await createDb(env.DB).select({ id: telegramMenus.id }).from(telegramMenus).where(eq(telegramMenus.command, command)).limit(1)
  if (row && row.id !== exceptId) throw conflict(`The command /${command} already exists`)
}

const columns = (f: MenuFields) => ({ command: f.command, description: f.description, parseMode: f.parse_mode, replyMessage: f.reply_message })

export async function createMenu(env: Env, f: MenuFields) {
  await assertFree(env, f.command)
  const [row] = await createDb(env.DB).insert(telegramMenus).values(columns(f)).onConflictDoNothing().returning()
  if (!row) throw conflict(`The command /${f.command} already exists`)
  return menuView(row)
}

export async function updateMenu(env: Env, id: number, f: MenuFields) {
  await assertFree(env, f.command, id)
  try {
    const [row] = await createDb(env.DB).update(telegramMenus).set(columns(f)).where(eq(telegramMenus.id, id)).returning()
    if (!row) throw notFound('Menu not found')
    return menuView(row)
  } catch (err) {
    if (err instanceof Error && /UNIQUE/i.test(String(err.cause ?? err.message))) throw conflict(`The command /${f.command} already exists`)
    throw err
  }
}

export async function deleteMenu(env: Env, id: number) {
  const rows = await createDb(env.DB).delete(telegramMenus).where(eq(telegramMenus.id, id)).returning({ id: telegramMenus.id })
  if (rows.length === 0) throw notFound('Menu not found')
}
