/**
 * Telegram routes: the webhook (POST /api/telegram/webhook, authenticated only by the
 * X-Telegram-Bot-Api-Secret-Token header, compared in constant time; wrong or missing → 401 and
 * nothing runs), the admin's menu CRUD, reload and status under /api/option/telegram (one-hub's
 * paths), and the signed-in user's binding: status, a one-time bind code with its deep link, unbind,
 * and the switch for notices to the bound chat (telegram/notify.ts).
 */
import { Hono } from 'hono'
import { webhookCallback } from 'grammy/web'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../db/client'
import { users } from '../db/schema'
import { adminRoute, publicRoute, userRoute } from '../middleware/access'
import { badRequest, notFound, unauthorized } from '../lib/errors'
import { safeEqual } from '../lib/crypto'
import { ok } from '../lib/respond'
import { idParam, validate, validationError } from '../lib/validate'
import { listQuery } from '../lib/paging'
import { getUser } from '../accounts/users'
import type { HonoEnv } from '../env'
import { issueBindCode, unbindTelegram } from './account'
import { botStatus, reloadBot } from './apply'
import { buildBot } from './bot'
import { botActive, readApplied, telegramConfig } from './config'
import { createMenu, createMenuSchema, deleteMenu, getMenu, listMenus, updateMenu, updateMenuSchema } from './menus.service'
import { publicSiteUrl } from '../lib/base-path'
import type { TelegramBindCode } from '../../shared/contract/telegram'

const SECRET_HEADER = 'X-Telegram-Bot-Api-Secret-Token'
const notifySchema = z.object({ notify: z.boolean('must be true or false') })
const updateShape = z.looseObject({ update_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) })

export const telegramRoutes = new Hono<HonoEnv>()
  .post('/telegram/webhook', publicRoute, async (c) => {
    const cfg = await telegramConfig(c.env)
    if (!botActive(cfg)) throw notFound('The Telegram bot is not enabled')
    const given = c.req.header(SECRET_HEADER) ?? ''
    if (!cfg.webhookSecret || !safeEqual(given, cfg.webhookSecret)) throw unauthorized('Wrong or missing Telegram secret token')
    const parsed = updateShape.safeParse(await c.req.json().catch(() => undefined))
    if (!parsed.success) throw validationError(parsed.error)
    const bot = buildBot(c.env, cfg, await readApplied(c.env))
    if (!bot.isInited()) await bot.init()
    const handle = webhookCallback(bot, 'hono', { secretToken: cfg.webhookSecret, onTimeout: 'return', timeoutMilliseconds: 25_000 })
    return handle(c)
  })
  .get('/option/telegram/', adminRoute, validate('query', listQuery), async (c) => ok(c, await listMenus(c.env, c.req.valid('query'))))
  .get('/option/telegram/status', adminRoute, async (c) => ok(c, await botStatus(c.env)))
  .get('/option/telegram/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => ok(c, await getMenu(c.env, c.req.valid('param').id)))
  .post('/option/telegram/', adminRoute, validate('json', createMenuSchema), async (c) => {
    const { id, ...fields } = c.req.valid('json')
    // one-hub: POST with an id updates.
    if (id) return ok(c, await updateMenu(c.env, id, fields), 'Saved; press Reload to apply')
    return ok(c, await createMenu(c.env, fields), 'Created; press Reload to apply')
  })
  .put('/option/telegram/', adminRoute, validate('json', updateMenuSchema), async (c) => {
    const { id, ...fields } = c.req.valid('json')
    return ok(c, await updateMenu(c.env, id, fields), 'Saved; press Reload to apply')
  })
  .delete('/option/telegram/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    await deleteMenu(c.env, c.req.valid('param').id)
    return ok(c, null, 'Deleted; press Reload to apply')
  })
  .put('/option/telegram/reload', adminRoute, async (c) => {
    const applied = await reloadBot(c.env, publicSiteUrl(c))
    return ok(c, { bot_username: applied.bot.username, menus: applied.menus.length, mode: applied.mode }, 'Reloaded')
  })
  .get('/user/telegram', userRoute, async (c) => {
    const [cfg, applied, user] = await Promise.all([telegramConfig(c.env), readApplied(c.env), getUser(c.env, c.get('user')!.id)])
    if (!user) throw notFound('User not found')
    return ok(c, {
      enabled: botActive(cfg) && Boolean(applied),
      bot_username: botActive(cfg) ? (applied?.bot.username ?? '') : '',
      telegram_id: user.telegramId,
      notify: user.telegramNotify,
    })
  })
  .put('/user/telegram', userRoute, validate('json', notifySchema), async (c) => {
    const notify = c.req.valid('json').notify
    await createDb(c.env.DB)
      .update(users)
      .set({ telegramNotify: notify })
      .where(eq(users.id, c.get('user')!.id))
    return ok(c, { notify }, notify ? 'Telegram notices on' : 'Telegram notices off')
  })
  .post('/user/telegram/code', userRoute, async (c) => {
    const [cfg, applied] = await Promise.all([telegramConfig(c.env), readApplied(c.env)])
    if (!botActive(cfg) || !applied) throw badRequest('The Telegram bot is not enabled')
    const { code, expires_in } = await issueBindCode(c.env, c.get('user')!.id)
    const link = `https://t.me/${applied.bot.username}?start=${code}`
    return ok(c, { code, expires_in, bot_username: applied.bot.username, link } satisfies TelegramBindCode)
  })
  .delete('/user/telegram', userRoute, async (c) => {
    await unbindTelegram(c.env, c.get('user')!.id)
    return ok(c, null, 'Unbound')
  })
