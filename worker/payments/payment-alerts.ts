/**
 * Log rows for root about payments: refused or odd notifies and failed credits (`alertRoot`), and
 * how often a refused notify may write one (security finding 10 of round 3). The notify route is
 * public, so a refusal anyone can provoke (a disabled gateway, a bad signature, an unknown order)
 * writes at most one row per gateway and reason a minute, counted in the RateLimiter Durable Object
 * (one instance per gateway and reason, so their number is bounded); the rest go to the console only.
 */
import { logForRoot } from '../logs/root-notice'
import type { NotifyRequest } from './gateways/types'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'payments' })

/** The reasons a notify to a known gateway is refused or only acknowledged, one log row a minute each. */
export type NotifyAlertKind = 'disabled' | 'invalid' | 'unknown-order' | 'repeated'

const ALERT_WINDOW_MS = 60_000

/** A log row for root: refused or odd notifies, failed credits. Never throws. */
export async function alertRoot(env: Env, content: string, metadata: Record<string, unknown>) {
  serverLog.warn(content, { metadata })
  await logForRoot(env, `Payment: ${content}`, metadata)
}

/** `alertRoot` for a notify to gateway `gatewayId`, at most once a minute per `kind`; otherwise the console only. */
export async function alertRootThrottled(env: Env, gatewayId: number, kind: NotifyAlertKind, content: string, metadata: Record<string, unknown>) {
  let allowed = true
  try {
    allowed = (await env.RATE_LIMITER.getByName(`notify-alert:${gatewayId}:${kind}`).hit(1, ALERT_WINDOW_MS)).allowed
  } catch (err) {
    serverLog.error('the alert throttle failed; logging anyway', { error: err })
  }
  if (allowed) await alertRoot(env, content, { ...metadata, throttle: `one row per minute for ${kind}` })
  else serverLog.warn(content, { throttled: true })
}

/** The raw notify as the log keeps it (bounded). */
export const rawOf = (req: NotifyRequest) => ({ method: req.method, query: req.url.search.slice(0, 2000), body: req.body.slice(0, 4000) })
