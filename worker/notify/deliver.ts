/**
 * Delivery of notices: one notify_deliveries row per notice and channel, every attempt recorded on
 * it (attempts, HTTP status, redacted error). The emitter makes QUICK_ATTEMPTS tries in the
 * background right away; the frequent cron (retryDue) takes the rest with doubling backoff until
 * MAX_ATTEMPTS, then the row is `failed`. Finished rows are pruned after DELIVERY_KEEP_SECONDS (30 days).
 */
import { redactSecrets } from '../lib/redact'
import { nowSeconds } from '../lib/time'
import type { NotifyChannel } from '../db/schema'
import { sinkOf } from './registry'
import type { Notice, SendOutcome } from './types'

export const QUICK_ATTEMPTS = 2
export const MAX_ATTEMPTS = 6
/** Pause between the quick attempts. */
const QUICK_PAUSE_MS = 300
/** The cron's first retry waits this long, doubling after each failed one. */
export const RETRY_BASE_SECONDS = 300

const retryDelaySeconds = (attempts: number) => RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - QUICK_ATTEMPTS)

/** The error as stored and shown: known key shapes, the channel's secret and URL path never appear. */
function redactError(channel: Pick<NotifyChannel, 'url' | 'secret'>, error: string): string {
  let out = error
  if (channel.secret) out = out.split(channel.secret).join('[redacted]')
  if (channel.url) {
    try {
      const u = new URL(channel.url)
      out = out.split(channel.url).join(`${u.origin}/[redacted]`)
    } catch {
      /* a stored URL always parses */
    }
  }
  return redactSecrets(out).slice(0, 500)
}

/** One attempt of the channel's sink, never throwing. */
async function sendOnce(env: Env, channel: NotifyChannel, notice: Notice): Promise<SendOutcome> {
  const sink = sinkOf(channel.type)
  if (!sink) return { ok: false, httpStatus: 0, error: `unknown channel type ${channel.type}` }
  try {
    const out = await sink.send(env, { url: channel.url, secret: channel.secret, config: channel.config ?? {} }, notice)
    return { ...out, error: redactError(channel, out.error) }
  } catch (err) {
    return { ok: false, httpStatus: 0, error: redactError(channel, err instanceof Error ? err.message : String(err)) }
  }
}

/** Record one attempt's outcome on the delivery row (`attempts` is the count including it). */
async function record(env: Env, id: number, attempts: number, out: SendOutcome, final: boolean) {
  const now = nowSeconds()
  const status = out.ok ? 'delivered' : final || attempts >= MAX_ATTEMPTS ? 'failed' : 'pending'
  await env.DB.prepare('UPDATE notify_deliveries SET status = ?, attempts = ?, http_status = ?, error = ?, next_at = ?, updated_at = ? WHERE id = ?')
    .bind(status, attempts, out.httpStatus, out.error, status === 'pending' ? now + retryDelaySeconds(attempts) : 0, now, id)
    .run()
}

/** The cron takes a new row only if its emitter recorded no attempt within this (an isolate that died mid-way). */
const FRESH_GRACE_SECONDS = 120

/** A new delivery row for `notice` to `channel`; returns its id. */
export async function openDelivery(env: Env, channel: NotifyChannel, notice: Notice, subject: string): Promise<number> {
  const now = nowSeconds()
  const row = await env.DB.prepare(
    "INSERT INTO notify_deliveries (channel_id, event, subject, payload, status, attempts, next_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?) RETURNING id"
  )
    .bind(channel.id, notice.event, subject.slice(0, 200), JSON.stringify(notice), now + FRESH_GRACE_SECONDS, now, now)
    .first<{ id: number }>()
  return row!.id
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Up to `tries` attempts now (pausing between them), each recorded; true once delivered. */
export async function attemptNow(env: Env, channel: NotifyChannel, notice: Notice, id: number, done: number, tries: number, final = false): Promise<SendOutcome> {
  let out: SendOutcome = { ok: false, httpStatus: 0, error: '' }
  for (let i = 0; i < tries; i++) {
    if (i > 0) await pause(QUICK_PAUSE_MS * 2 ** (i - 1))
    out = await sendOnce(env, channel, notice)
    const attempts = done + i + 1
    await record(env, id, attempts, out, final && i === tries - 1)
    if (out.ok || attempts >= MAX_ATTEMPTS) break
  }
  return out
}

/** The frequent cron: one more attempt of each due pending delivery (oldest first, bounded). */
export async function retryDue(env: Env, limit = 50): Promise<{ retried: number; delivered: number }> {
  const { results } = await env.DB.prepare(
    `SELECT d.id, d.attempts, d.payload, c.id AS cid, c.name, c.type, c.url, c.secret, c.config, c.events, c.enabled, c.created_at, c.updated_at
     FROM notify_deliveries d JOIN notify_channels c ON c.id = d.channel_id
     WHERE d.status = 'pending' AND d.next_at <= ? AND c.enabled = 1 ORDER BY d.id LIMIT ?`
  )
    .bind(nowSeconds(), limit)
    .all<Record<string, any>>()
  let delivered = 0
  for (const r of results) {
    const channel: NotifyChannel = {
      id: r.cid,
      name: r.name,
      type: r.type,
      url: r.url,
      secret: r.secret,
      config: JSON.parse(r.config || '{}'),
      events: JSON.parse(r.events || '[]'),
      enabled: Boolean(r.enabled),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }
    const out = await attemptNow(env, channel, JSON.parse(r.payload) as Notice, r.id, r.attempts, 1)
    if (out.ok) delivered++
  }
  // Deliveries whose channel is gone or switched off are not retried.
  await env.DB.prepare(
    "UPDATE notify_deliveries SET status = 'failed', error = 'channel deleted or disabled', next_at = 0 WHERE status = 'pending' AND channel_id NOT IN (SELECT id FROM notify_channels WHERE enabled = 1)"
  ).run()
  return { retried: results.length, delivered }
}

/** Finished deliveries (delivered or failed) are kept this long for the delivery log, then pruned by the cron. */
export const DELIVERY_KEEP_SECONDS = 30 * 86400

export async function pruneDeliveries(env: Env): Promise<number> {
  const res = await env.DB.prepare("DELETE FROM notify_deliveries WHERE status != 'pending' AND updated_at < ?")
    .bind(nowSeconds() - DELIVERY_KEEP_SECONDS)
    .run()
  return res.meta.changes
}
