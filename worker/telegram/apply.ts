/**
 * Applying the bot (PUT /api/option/telegram/reload) and reading its status. Reload asks getMe,
 * pushes the default commands plus every menu with setMyCommands, then either sets the webhook to
 * this gateway's /api/telegram/webhook with the secret token (generated and saved when empty) or,
 * in polling mode, deletes the webhook and starts the TelegramPoller alarm. The menus and getMe
 * answer are kept as the applied snapshot the handlers serve until the next reload.
 */
import type { TelegramStatus } from '../../shared/contract/telegram'
import { asc } from 'drizzle-orm'
import { GrammyError, HttpError } from 'grammy/web'
import { createDb } from '../db/client'
import { telegramMenus } from '../db/schema'
import { cacheKeys } from '../cache/keys'
import { ApiError, badRequest } from '../lib/errors'
import { randomString } from '../lib/crypto'
import { nowSeconds } from '../lib/time'
import { saveOptions } from '../settings/store'
import { DEFAULT_COMMANDS, RESERVED_COMMANDS } from './bot'
import { botActive, createBot, readApplied, telegramConfig, writeApplied, type AppliedState, type TelegramConfig } from './config'

export const WEBHOOK_PATH = '/api/telegram/webhook'
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const

/**
 * A Bot API failure as a 502 naming Telegram's own description. No `cause` is attached: the error
 * handler logs causes, and a network error may carry the request URL, which holds the bot token.
 */
export function botApiError(err: unknown): ApiError {
  if (err instanceof GrammyError) return new ApiError(502, `Telegram answered ${err.error_code}: ${err.description}`)
  if (err instanceof HttpError) return new ApiError(502, 'The Telegram Bot API is unreachable')
  return new ApiError(502, 'The Telegram Bot API call failed')
}

export const pollerStub = (env: Env) => env.TELEGRAM_POLLER.getByName('telegram')

export async function reloadBot(env: Env, origin: string): Promise<AppliedState> {
  let cfg = await telegramConfig(env)
  if (!botActive(cfg)) throw badRequest('The Telegram bot is not enabled: switch it on and set its token under Settings first')
  if (cfg.mode === 'webhook' && !cfg.webhookSecret) {
    await saveOptions(env, { TelegramWebhookSecret: randomString(48) })
    cfg = await telegramConfig(env)
  }
  const menus = await createDb(env.DB).select().from(telegramMenus).orderBy(asc(telegramMenus.id))
  const applied: AppliedState = {
    bot: undefined as unknown as AppliedState['bot'],
    menus: menus
      .filter((m) => !RESERVED_COMMANDS.has(m.command))
      .map((m) => ({ command: m.command, description: m.description, parse_mode: m.parseMode, reply_message: m.replyMessage })),
    mode: cfg.mode,
    applied_at: nowSeconds(),
  }
  const bot = createBot(cfg)
  try {
    await bot.init()
    applied.bot = bot.botInfo
    const commands = [...DEFAULT_COMMANDS, ...applied.menus].slice(0, 100).map((c) => ({ command: c.command, description: c.description.slice(0, 256) || c.command }))
    await bot.api.setMyCommands(commands)
    if (cfg.mode === 'webhook') {
      await pollerStub(env).stop()
      await bot.api.setWebhook(webhookUrl(cfg, origin), {
        secret_token: cfg.webhookSecret,
        allowed_updates: [...ALLOWED_UPDATES],
        max_connections: 40,
      })
    } else {
      await bot.api.deleteWebhook()
    }
  } catch (err) {
    throw botApiError(err)
  }
  await writeApplied(env, applied)
  if (cfg.mode === 'polling') await pollerStub(env).start()
  return applied
}

export const webhookUrl = (cfg: TelegramConfig, origin: string) => `${cfg.serverAddress || origin.replace(/\/+$/, '')}${WEBHOOK_PATH}`

type BotStatus = TelegramStatus

export async function botStatus(env: Env): Promise<BotStatus> {
  const cfg = await telegramConfig(env)
  const applied = await readApplied(env)
  const status: BotStatus = {
    enabled: cfg.enabled,
    configured: cfg.token !== '',
    mode: cfg.mode,
    bot_username: applied?.bot?.username ?? '',
    applied_at: applied?.applied_at ?? 0,
    applied_mode: applied?.mode ?? '',
    menus_applied: applied?.menus.length ?? 0,
    last_update_time: Number(await env.CACHE.get(cacheKeys.telegramLastUpdate)) || 0,
    error: '',
  }
  if (!botActive(cfg)) return status
  if (cfg.mode === 'polling') {
    const p = await pollerStub(env).status()
    status.polling = { running: p.running, offset: p.offset, last_poll_time: p.lastPollTime, last_error: p.lastError }
    return status
  }
  try {
    const info = await createBot(cfg, applied?.bot).api.getWebhookInfo()
    status.webhook = {
      url: info.url ?? '',
      pending_update_count: info.pending_update_count,
      last_error_date: info.last_error_date ?? 0,
      last_error_message: info.last_error_message ?? '',
    }
  } catch (err) {
    status.error = botApiError(err).message
  }
  return status
}
