/**
 * TelegramPoller: polling mode of the Telegram bot without a server process. One object
 * (`telegram`) whose alarm long-polls getUpdates from the stored offset (at most 100 updates,
 * a bounded wait), hands each update to the bot, stores the next offset and re-arms itself. It
 * stops when the bot is switched off or set to webhook mode; a failure is recorded and retried
 * after a pause. Cron re-arms it when the mode is polling (worker/cron/index.ts).
 */
import { DurableObject } from 'cloudflare:workers'
import { buildBot } from './bot'
import { ALLOWED_UPDATES, botApiError } from './apply'
import { botActive, readApplied, telegramConfig } from './config'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'telegram-poller' })

/** Long-poll wait in seconds (Telegram allows up to 50; an alarm may run for minutes). */
export const POLL_TIMEOUT_SECONDS = 25
const BATCH_LIMIT = 100
const RETRY_AFTER_MS = 30_000
/** Floor between two polls, so a Bot API that answers at once never spins the alarm. */
const MIN_INTERVAL_MS = 1_000

export interface PollerStatus {
  running: boolean
  offset: number
  lastPollTime: number
  lastError: string
}

export class TelegramPoller extends DurableObject<Env> {
  private get kv() {
    return this.ctx.storage.kv
  }

  status(): PollerStatus {
    return {
      running: this.kv.get<boolean>('running') ?? false,
      offset: this.kv.get<number>('offset') ?? 0,
      lastPollTime: this.kv.get<number>('lastPollTime') ?? 0,
      lastError: this.kv.get<string>('lastError') ?? '',
    }
  }

  async start(): Promise<PollerStatus> {
    this.kv.put('running', true)
    this.kv.put('lastError', '')
    await this.ctx.storage.setAlarm(Date.now())
    return this.status()
  }

  async stop(): Promise<void> {
    this.kv.put('running', false)
    await this.ctx.storage.deleteAlarm()
  }

  /** Cron's keep-alive: re-arm a running poller whose alarm went missing. */
  async ensure(): Promise<void> {
    if (this.kv.get<boolean>('running') && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now())
  }

  async alarm(): Promise<void> {
    const cfg = await telegramConfig(this.env)
    if (!this.kv.get<boolean>('running') || !botActive(cfg) || cfg.mode !== 'polling') {
      this.kv.put('running', false)
      return
    }
    const started = Date.now()
    const bot = buildBot(this.env, cfg, await readApplied(this.env))
    let next = RETRY_AFTER_MS
    try {
      if (!bot.isInited()) await bot.init()
      const offset = this.kv.get<number>('offset') ?? 0
      const updates = await bot.api.getUpdates({ offset, limit: BATCH_LIMIT, timeout: POLL_TIMEOUT_SECONDS, allowed_updates: [...ALLOWED_UPDATES] })
      for (const update of updates) {
        // The offset moves past an update before it is handled: a failing update is not retried forever.
        this.kv.put('offset', update.update_id + 1)
        try {
          await bot.handleUpdate(update)
        } catch (err) {
          serverLog.error('telegram update failed', { update_id: update.update_id, error: err })
        }
      }
      this.kv.put('lastError', '')
      next = updates.length > 0 ? 0 : Math.max(0, MIN_INTERVAL_MS - (Date.now() - started))
    } catch (err) {
      this.kv.put('lastError', botApiError(err).message)
    }
    this.kv.put('lastPollTime', Math.floor(Date.now() / 1000))
    await this.ctx.storage.setAlarm(Date.now() + next)
  }
}
