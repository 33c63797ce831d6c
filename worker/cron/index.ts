/**
 * What runs on cron (wrangler.toml [triggers]):
 * - every 5 minutes: statistics rollup of today and yesterday; channel speed tests when
 *   ChannelTestFrequency minutes have passed since the last run; retests of auto-disabled channels
 *   and pool keys that are due (channels/channel-retest.ts, exponential backoff); balance refresh every
 *   ChannelBalanceFrequency minutes; a bounded sweep of unfinished Midjourney/Suno tasks
 *   (tasks/task-poller.ts: fails and refunds those past 1 h, puts tasks that are in no TaskQueue
 *   back into their channel's queue, whose alarms do the polling);
 * - hourly (from the five-minute trigger): log retention under LogCleanupDays and LogMaxRows, archiving
 *   to R2 first when LOG_ARCHIVE is bound, then the 80 % budget notice (logs/log-retention.ts);
 * - daily at 00:10 UTC: rollup of yesterday and expired sessions.
 * Every 5 minutes also: alerts (notify/cron.ts: delivery retries, dead-letter notices, mark pruning;
 * a failing job raises cron.failed); pending top-up orders older than 3 h are closed (the gateway asked first);
 * auto-renewing subscriptions near their expiry get a renewal order and a notice (payments/renewal-orders.ts);
 * active subscriptions past their expiry are ended (plans/subscription-end.ts); in Telegram polling mode the TelegramPoller's alarm is re-armed if it went missing.
 * Each job is isolated: one failing does not stop the others.
 */
import { testAllChannels } from '../channels/channel-test'
import { refreshAllBalances } from '../channels/channel-balance'
import { retestDue } from '../channels/channel-retest'
import { scheduledRetention } from '../logs/log-retention'
import { cacheKeys } from '../cache/keys'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { closeStaleOrders } from '../payments/payments.service'
import { rollupRecent } from '../logs/rollup'
import { pollUnfinishedTasks } from '../tasks/task-poller'
import { sweepExpiredSubscriptions } from '../plans/subscription-end'
import { placeRenewalOrders } from '../payments/renewal-orders'
import { metrics } from '../lib/metrics/recorder'
import { redactSecrets } from '../lib/redact'
import { emitNotice } from '../notify/emit'
import { notifyCron } from '../notify/cron'
import { CronReport } from './cron-report'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'cron' })

export const FREQUENT_CRON = '*/5 * * * *'
export const DAILY_CRON = '10 0 * * *'

async function dueEvery(env: Env, job: string, minutes: number): Promise<boolean> {
  if (minutes <= 0) return false
  const key = cacheKeys.cronLastRun(job)
  const last = Number((await env.CACHE.get(key)) ?? 0)
  if (Date.now() - last < minutes * 60_000 - 30_000) return false
  await env.CACHE.put(key, String(Date.now()))
  return true
}

/** The jobs of each trigger, as the system page lists them (in run order). */
export const CRON_JOBS: Record<string, string[]> = {
  [FREQUENT_CRON]: [
    'rollup',
    'payment-orders',
    'plan-renewals',
    'plan-expiry',
    'async-tasks',
    'channel-test',
    'channel-retest',
    'log-retention',
    'notify',
    'channel-balance',
    'telegram-poller',
  ],
  [DAILY_CRON]: ['rollup', 'sessions'],
}

/** One job, isolated from the others; its run, duration and success time go to the metrics and the trigger's report (cron-report.ts). */
async function run(env: Env, report: CronReport, name: string, job: () => Promise<unknown>) {
  const started = Date.now()
  let result: 'ok' | 'error' = 'ok'
  let error: string | undefined
  try {
    await job()
  } catch (err) {
    result = 'error'
    error = redactSecrets(err instanceof Error ? err.message : String(err)).slice(0, 500)
    serverLog.error('cron job failed', { job: name, error: err })
    await emitNotice(env, { event: 'cron.failed', subject: `job:${name}`, text: `Cron job ${name} failed: ${error}`, data: { job: name, error } })
  }
  const ended = Date.now()
  report.add(name, { at: started, ms: ended - started, result, ...(error === undefined ? {} : { error }) })
  metrics.inc('gateway_cron_runs_total', [name, result])
  metrics.observe('gateway_cron_duration_seconds', [name], (ended - started) / 1000)
  if (result === 'ok') metrics.max('gateway_cron_last_success_timestamp_seconds', [name], Math.floor(ended / 1000))
}

export async function runScheduled(controller: Pick<ScheduledController, 'cron' | 'scheduledTime'>, env: Env): Promise<void> {
  const report = new CronReport(controller.cron)
  try {
    await runJobs(controller, env, (name, job) => run(env, report, name, job))
  } finally {
    await report.save(env).catch((err: unknown) => serverLog.error('cron report not saved', { error: err }))
  }
}

async function runJobs(controller: Pick<ScheduledController, 'cron' | 'scheduledTime'>, env: Env, run: (name: string, job: () => Promise<unknown>) => Promise<void>) {
  const settings = await getSettings(env)
  if (controller.cron === DAILY_CRON) {
    await run('rollup', () => rollupRecent(env, controller.scheduledTime))
    await run('sessions', () => env.DB.prepare('DELETE FROM sessions WHERE expires_at < ?').bind(nowSeconds()).run())
    return
  }
  await run('rollup', () => rollupRecent(env, controller.scheduledTime))
  await run('payment-orders', () => closeStaleOrders(env))
  // Auto-renewing subscriptions near their expiry get their renewal order (gateways without recurring payments).
  await run('plan-renewals', () => placeRenewalOrders(env))
  // Subscriptions past their expiry end (status 2) and their users leave the plans' groups.
  await run('plan-expiry', () => sweepExpiredSubscriptions(env))
  await run('async-tasks', () => pollUnfinishedTasks(env))
  if (await dueEvery(env, 'channel-test', settings.int('ChannelTestFrequency'))) await run('channel-test', () => testAllChannels(env))
  await run('channel-retest', () => retestDue(env))
  // After the rollup above, so the statistics already hold the rows retention takes away.
  if (await dueEvery(env, 'log-retention', 60)) await run('log-retention', () => scheduledRetention(env))
  // Alerts: due retries of failed deliveries, parked ledger rows not yet announced, old dedup marks.
  await run('notify', () => notifyCron(env))
  if (await dueEvery(env, 'channel-balance', settings.int('ChannelBalanceFrequency'))) await run('channel-balance', () => refreshAllBalances(env))
  // Telegram polling mode: re-arm the poller's alarm if it went missing (telegram/apply.ts starts it).
  if (settings.bool('TelegramBotEnabled') && settings.str('TelegramMode') === 'polling') await run('telegram-poller', () => env.TELEGRAM_POLLER.getByName('telegram').ensure())
}
