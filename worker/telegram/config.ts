/**
 * The Telegram bot's configuration and applied state: the settings (TelegramBotEnabled, token,
 * webhook secret, mode, API base), the snapshot written by the last reload (menus, the bot's
 * getMe answer, mode, time) kept in the internal option `TelegramApplied`, and a grammY `Bot`
 * built against the configured API base.
 */
import { Bot } from 'grammy/web'
import type { UserFromGetMe } from 'grammy/types'
import { getSettings, saveInternalOption, type Settings } from '../settings/store'

export type TelegramMode = 'webhook' | 'polling'

export interface TelegramConfig {
  enabled: boolean
  token: string
  webhookSecret: string
  mode: TelegramMode
  apiBase: string
  serverAddress: string
  displayInCurrency: boolean
  quotaPerUnit: number
}

export interface AppliedMenu {
  command: string
  description: string
  parse_mode: string
  reply_message: string
}

/** What the last reload pushed to Telegram; the handlers serve exactly this until the next reload. */
export interface AppliedState {
  bot: UserFromGetMe
  menus: AppliedMenu[]
  mode: TelegramMode
  applied_at: number
}

export const APPLIED_KEY = 'TelegramApplied' as const

export async function telegramConfig(env: Env): Promise<TelegramConfig> {
  const s = await getSettings(env)
  return {
    enabled: s.bool('TelegramBotEnabled'),
    token: s.str('TelegramBotToken'),
    webhookSecret: s.str('TelegramWebhookSecret'),
    mode: s.str('TelegramMode') === 'polling' ? 'polling' : 'webhook',
    apiBase: s.str('TelegramApiBase').replace(/\/+$/, '') || 'https://api.telegram.org',
    serverAddress: s.str('ServerAddress').replace(/\/+$/, ''),
    displayInCurrency: s.bool('DisplayInCurrencyEnabled'),
    quotaPerUnit: Math.max(1, s.int('QuotaPerUnit')),
  }
}

/** The bot is usable: switched on and with a token. */
export const botActive = (cfg: TelegramConfig) => cfg.enabled && cfg.token !== ''

export const readApplied = async (env: Env) => appliedFrom(await getSettings(env))

export function appliedFrom(s: Settings): AppliedState | undefined {
  const raw = s.str(APPLIED_KEY)
  if (!raw) return undefined
  try {
    return JSON.parse(raw) as AppliedState
  } catch {
    return undefined
  }
}

export const writeApplied = (env: Env, state: AppliedState) => saveInternalOption(env, APPLIED_KEY, JSON.stringify(state))

/** `/api/status` telegram_bot: the applied bot's username while the bot is on. */
export function publicBotName(s: Settings): string {
  if (!s.bool('TelegramBotEnabled') || !s.str('TelegramBotToken')) return ''
  return appliedFrom(s)?.bot?.username ?? ''
}

/** A grammY bot on the configured API base; `botInfo` skips getMe when the reload already asked. */
export function createBot(cfg: TelegramConfig, botInfo?: UserFromGetMe, timeoutSeconds = 30): Bot {
  return new Bot(cfg.token, {
    botInfo,
    client: {
      apiRoot: cfg.apiBase,
      // Looked up per call so the worker tests' fetch mock answers the Bot API.
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)) as typeof fetch,
      timeoutSeconds,
    },
  })
}
