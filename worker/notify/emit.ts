/**
 * Emitting an alert where it happens: `emitNotice` finds the enabled channels subscribed to the
 * event, deduplicates on (event, subject) — a conditional upsert of notify_marks lets one notice
 * through per NotifyCooldownMinutes — opens a delivery row per channel and makes the quick
 * attempts (a `markUntil` keeps the mark longer: one budget notice per period). A recovery event
 * (RECOVERS) is sent only when it clears its problem's mark. Never
 * throws; `emitInBackground` runs it in waitUntil so no response waits for it.
 */
import type { BackgroundCtx } from '../cache/versioned'
import { createDb } from '../db/client'
import { notifyChannels, type NotifyChannel } from '../db/schema'
import { eq } from 'drizzle-orm'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { QUICK_ATTEMPTS, attemptNow, openDelivery } from './deliver'
import { NOTIFY_EVENTS, RECOVERS, type Notice, type NotifyEvent } from './types'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'notify' })

export interface EmitInput {
  event: NotifyEvent
  /** What the notice is about (`channel:12`, `job:rollup`, …): the dedup key with the event. */
  subject: string
  text: string
  data?: Record<string, unknown>
  /** Unix seconds: the mark stands at least until then, whatever the cool-down (once per budget period). */
  markUntil?: number
}

/** Claim the (event, subject) mark unless one was set within the cool-down; true when this notice may go. */
export async function claimMark(env: Env, event: string, subject: string, cooldownSeconds: number, until = 0): Promise<boolean> {
  const now = nowSeconds()
  // A mark dated `until` (in the future) blocks the subject until then plus the cool-down.
  const res = await env.DB.prepare(
    `INSERT INTO notify_marks (event, subject, sent_at) VALUES (?, ?, ?)
     ON CONFLICT (event, subject) DO UPDATE SET sent_at = excluded.sent_at WHERE notify_marks.sent_at <= ?`
  )
    .bind(event, subject, Math.max(now, until), now - cooldownSeconds)
    .run()
  return res.meta.changes > 0
}

/** Clear the problem's mark; true when there was one (the problem had been notified). */
async function clearMark(env: Env, event: string, subject: string): Promise<boolean> {
  const res = await env.DB.prepare('DELETE FROM notify_marks WHERE event = ? AND subject = ?').bind(event, subject).run()
  return res.meta.changes > 0
}

export async function emitNotice(env: Env, input: EmitInput): Promise<number> {
  try {
    const all = await createDb(env.DB).select().from(notifyChannels).where(eq(notifyChannels.enabled, true))
    const targets = all.filter((c) => (c.events ?? []).includes(input.event))
    if (targets.length === 0) return 0
    const problem = RECOVERS[input.event]
    if (problem) {
      if (!(await clearMark(env, problem, input.subject))) return 0
    } else {
      const cooldown = Math.max(1, (await getSettings(env)).int('NotifyCooldownMinutes')) * 60
      if (!(await claimMark(env, input.event, input.subject, cooldown, input.markUntil))) return 0
    }
    const notice: Notice = {
      event: input.event,
      at: new Date().toISOString(),
      severity: NOTIFY_EVENTS[input.event],
      text: input.text,
      data: { subject: input.subject, ...input.data },
    }
    await Promise.all(targets.map((c) => deliverNew(env, c, notice, input.subject)))
    return targets.length
  } catch (err) {
    serverLog.error('notice failed', { event: input.event, subject: input.subject, error: err })
    return 0
  }
}

async function deliverNew(env: Env, channel: NotifyChannel, notice: Notice, subject: string) {
  const id = await openDelivery(env, channel, notice, subject)
  await attemptNow(env, channel, notice, id, 0, QUICK_ATTEMPTS)
}

/** emitNotice off the response path. */
export function emitInBackground(env: Env, ctx: BackgroundCtx, input: EmitInput): void {
  ctx.waitUntil(emitNotice(env, input))
}

/** The console's "send test": one recorded attempt to this channel alone, no dedup. */
export async function sendTest(env: Env, channel: NotifyChannel) {
  const notice: Notice = {
    event: 'test',
    at: new Date().toISOString(),
    severity: 'info',
    text: `Test notice for channel "${channel.name}"`,
    data: { subject: `notify_channel:${channel.id}` },
  }
  const id = await openDelivery(env, channel, notice, notice.data.subject as string)
  const out = await attemptNow(env, channel, notice, id, 0, 1, true)
  return { delivery_id: id, ok: out.ok, http_status: out.httpStatus, error: out.error }
}

/** Marks older than a week mean nothing any more (the frequent cron prunes them). */
export async function pruneMarks(env: Env) {
  await env.DB.prepare('DELETE FROM notify_marks WHERE sent_at < ?')
    .bind(nowSeconds() - 7 * 86400)
    .run()
}
