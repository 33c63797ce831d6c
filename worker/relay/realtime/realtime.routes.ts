/**
 * GET /v1/realtime?model=… — the OpenAI Realtime WebSocket, relayed to the channel's realtime
 * endpoint (OpenAI and OpenAI-compatible channels) through the Worker's WebSocket pair
 * (realtime-bridge.ts). Auth by `Authorization: Bearer` or, for browsers, the
 * `openai-insecure-api-key.<key>` subprotocol (the `realtime` subprotocol is echoed). Before
 * upgrading: the key's limits (the session counts as one request against its requests per minute,
 * and its budget holds), one of the key's in-flight slots (concurrency_limit) and one of its
 * RealtimeMaxSessionsPerKey realtime sessions, both held in the user's wallet until the socket
 * closes, and a balance that covers one response's floor (429 with Retry-After otherwise). A
 * subscription limited to channel tags admits the session only when a realtime channel with one of
 * its tags serves the model, and then the session goes to such a channel only. Every
 * response and input transcription then holds its worst case before it runs (billing.ts,
 * realtime-responses.ts).
 */
import type { Context } from 'hono'
import { getPriceTable, groupRatio, resolvePrice } from '../../billing/pricing'
import type { HonoEnv } from '../../env'
import { ApiError } from '../../lib/errors'
import { joinUrl } from '../../providers/url'
import { getSettings } from '../../settings/store'
import { debtLimits } from '../../billing/debt-limits'
import { isFrozen, isFrozenFor, refreshFreezes } from '../../channels/health'
import { servingTags, tagFilter } from '../../channels/tag-scope'
import { keyFreezeName, RequestKeys } from '../../channels/key-pool'
import { candidatesFor, getRoutingTable } from '../../channels/routing-table'
import type { RoutedChannel } from '../../channels/types'
import { mapModel, usableChannels } from '../../channels/pick'
import { pickChannelFor, probeOutcome } from '../../channels/probe-pick'
import { assertModelAllowed } from '../../access/token-auth'
import { admit } from '../../access/admit'
import { localStatus, rateLimitHeaders, tokenlessSpec } from '../../access/token-limits'
import { walletRefusal } from '../../access/wallet-refusals'
import { Charge, chargeContext } from '../../billing/charge'
import { clockNow } from '../../lib/clock'
import type { RefusalReason } from '../../wallet/wallet-types'
import { RealtimeBilling } from './billing'
import { bridge } from './realtime-bridge'

/** Channel types whose realtime endpoint is OpenAI's: OpenAI and Custom (OpenAI-compatible). */
const REALTIME_TYPES = new Set([1, 8])
const KEY_PROTOCOL = 'openai-insecure-api-key.'

async function connect(channel: RoutedChannel, model: string): Promise<WebSocket | string> {
  const base = (channel.baseUrl || 'https://api.openai.com').replace(/^ws(s?):\/\//, 'http$1://')
  try {
    const res = await fetch(joinUrl(base, `/v1/realtime?model=${encodeURIComponent(model)}`), {
      headers: { upgrade: 'websocket', authorization: `Bearer ${channel.key}`, 'openai-beta': 'realtime=v1' },
    })
    if (!res.webSocket) return `upstream answered ${res.status} instead of a WebSocket`
    res.webSocket.accept()
    return res.webSocket
  } catch (err) {
    return `upstream connection failed: ${(err as Error).message}`
  }
}

export async function realtimeHandler(c: Context<HonoEnv>): Promise<Response> {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(400, 'Expected a WebSocket upgrade.', { code: 'websocket_required' })
  const protocols = (c.req.header('sec-websocket-protocol') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const keyProtocol = protocols.find((p) => p.startsWith(KEY_PROTOCOL))
  const auth = await admit(c, c.req.header('authorization') ? undefined : keyProtocol ? `Bearer ${keyProtocol.slice(KEY_PROTOCOL.length)}` : undefined)
  const model = c.req.query('model')?.trim()
  if (!model || model.length > 200) throw new ApiError(400, 'The model query parameter is required.', { code: 'model_name_required', param: 'model' })
  assertModelAllowed(auth, model)
  const [settings, prices, table] = await Promise.all([getSettings(c.env, c.executionCtx), getPriceTable(c.env, c.executionCtx), getRoutingTable(c.env, c.executionCtx)])
  const ratio = groupRatio(settings, auth.group)
  if (ratio === undefined) throw new ApiError(403, `The group "${auth.group}" is not configured on this gateway.`, { code: 'group_not_found' })
  refreshFreezes(
    c.env,
    c.executionCtx,
    candidatesFor(table, auth.group, model).map((ch) => ch.id)
  )

  const charge = new Charge(chargeContext(c, auth, model))
  // The key's limits: the session counts as one request of no tokens (token-limits.ts) and holds
  // one of the key's in-flight slots, and one of its realtime sessions, until the socket closes.
  const tz = settings.str('BudgetTimezone') || 'UTC'
  const spec = tokenlessSpec({ tokenId: auth.id, userId: auth.userId, limits: auth.limits }, model, tz)
  const maxSessions = settings.int('RealtimeMaxSessionsPerKey')
  // The slots name the tags of the realtime channels able to serve the model (channels/tag-scope.ts).
  const realtime = (ch: RoutedChannel) => REALTIME_TYPES.has(ch.type)
  const usable = usableChannels(table, { group: auth.group, model, tried: new Set(), hasTools: false, accept: realtime, isFrozen: isFrozenFor(`user:${auth.userId}`) })
  const slots = await charge.openSession(spec, maxSessions, { tz, tags: servingTags(usable) })
  if ('refused' in slots) {
    const { reason, retryAfterMs, headers } = slots.refused
    if (slots.slot === 'sessions' && reason === 'concurrency_limit_exceeded') {
      throw new ApiError(429, `This API key already has ${maxSessions} realtime sessions open.`, {
        code: 'concurrency_limit_exceeded',
        type: 'rate_limit_error',
        headers: { 'retry-after': '1' },
      })
    }
    throw refusal(reason, retryAfterMs, headers)
  }
  const release = () => charge.closeSession(slots.holds)
  // A subscription limited to channel tags admitted the session: it goes to those channels only.
  const scope = tagFilter(slots.holds[0]?.plan?.tags)
  try {
    const keys = new RequestKeys(undefined, (id, hash) => isFrozen(id, keyFreezeName(hash)))
    const tried = new Set<number>()
    let lastError = `No available realtime channel for model "${model}" in group "${auth.group}".`
    for (let attempt = 0; attempt <= settings.int('RetryTimes'); attempt++) {
      // Through the breakers as on the relay: a half-open channel gets one probe (channels/probe-pick.ts).
      const pick = pickChannelFor(table, `user:${auth.userId}`, { group: auth.group, model, tried, hasTools: false, accept: (ch) => realtime(ch) && (!scope || scope(ch)) })
      if (!pick) break
      const { channel } = pick
      tried.add(channel.id)
      const { upstream: upstreamModel, billed } = mapModel(channel, model)
      const price = resolvePrice(prices, billed, settings)
      if (!price) throw new ApiError(400, `The model "${billed}" has no price on this gateway; ask the administrator to set one.`, { code: 'model_not_priced', param: 'model' })
      const billing = new RealtimeBilling(charge, {
        channelId: channel.id,
        price,
        groupRatio: ratio,
        debt: debtLimits(settings),
        log: { upstreamModel },
        metadata: { billed_model: billed, group: auth.group, inbound_format: 'realtime' },
        limits: spec,
        planTz: tz,
        planTags: servingTags([channel]),
      })
      const refused = await billing.open()
      if (refused) throw refusal(refused.reason, refused.retryAfterMs, rateLimitHeaders(localStatus(spec, clockNow())))
      // A key pool's keys take turns (frozen and auto-disabled ones are skipped), as on the relay.
      const upstream = await connect(keys.use(channel), upstreamModel)
      if (typeof upstream === 'string') {
        lastError = upstream
        probeOutcome(c.env, c.executionCtx, pick, { ok: false, message: upstream, cooldownSeconds: settings.int('RetryCooldownSeconds') })
        continue
      }
      probeOutcome(c.env, c.executionCtx, pick, { ok: true })
      const priceOf = (name: string) => resolvePrice(prices, name, settings) ?? undefined
      return bridge(c, upstream, { billing, priceOf, release }, protocols.includes('realtime'))
    }
    throw new ApiError(502, lastError, { code: 'upstream_error' })
  } catch (err) {
    await release()
    throw err
  }
}

/** A wallet refusal before upgrading; a balance too low for one response says so plainly. */
function refusal(reason: RefusalReason, retryAfterMs: number | undefined, headers?: Record<string, string>): ApiError {
  if (reason === 'insufficient_user_quota') return new ApiError(429, 'Your balance is too low for a realtime session.', { code: 'insufficient_quota', type: 'insufficient_quota' })
  return walletRefusal(reason, retryAfterMs, headers)
}
