/**
 * GET /v1/realtime?model=… — the OpenAI Realtime WebSocket, relayed to the channel's realtime
 * endpoint (OpenAI and OpenAI-compatible channels) through the Worker's WebSocket pair. Auth by
 * `Authorization: Bearer` or, for browsers, the `openai-insecure-api-key.<key>` subprotocol (the
 * `realtime` subprotocol is echoed). Frames pass unchanged both ways; each upstream
 * `response.done` is billed through the wallet (billing.ts); once the balance cannot cover another
 * response the session ends with an `insufficient_quota` error event. The key's limits apply before
 * upgrading: the session counts as one request against its requests per minute, and its budget
 * holds at every check (429 with Retry-After).
 */
import type { Context } from 'hono'
import { getPriceTable, groupRatio, resolvePrice } from '../../billing/pricing'
import { LOG_TYPE } from '../../db/schema'
import type { HonoEnv } from '../../env'
import { ApiError } from '../../lib/errors'
import { clientIp } from '../../middleware/rate-limit'
import { joinUrl } from '../../providers/url'
import { getSettings } from '../../settings/store'
import { isFrozen, refreshFreezes } from '../health-view'
import { keyFreezeName, RequestKeys } from '../key-pool'
import { candidatesFor, getRoutingTable, type RoutedChannel } from '../routing-table'
import { mapModel, selectChannel } from '../select-channel'
import { assertModelAllowed, authenticateRelay } from '../token-auth'
import { admitLocally, checkLocally, localStatus, rateLimitHeaders, settleLocally, tokenlessSpec } from '../token-limits'
import { walletRefusal } from '../wallet-refusals'
import { clockNow } from '../../lib/clock'
import { RealtimeBilling, realtimeUsage } from './billing'

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

const errorEvent = (code: string, message: string) =>
  JSON.stringify({ type: 'error', error: { type: code === 'insufficient_quota' ? 'insufficient_quota' : 'server_error', code, message } })

export async function realtimeHandler(c: Context<HonoEnv>): Promise<Response> {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(400, 'Expected a WebSocket upgrade.', { code: 'websocket_required' })
  const protocols = (c.req.header('sec-websocket-protocol') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const keyProtocol = protocols.find((p) => p.startsWith(KEY_PROTOCOL))
  const auth = await authenticateRelay(c, c.req.header('authorization') ? undefined : keyProtocol ? `Bearer ${keyProtocol.slice(KEY_PROTOCOL.length)}` : undefined)
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

  const reqId = c.get('requestId')
  const wallet = c.env.WALLET.getByName(`user:${auth.userId}`)
  // The key's limits: the session counts as one request of no tokens (token-limits.ts), once
  // whichever channel takes it; later checks keep the budget only.
  const now = clockNow()
  const who = { tokenId: auth.id, userId: auth.userId, limits: auth.limits }
  const timeZone = settings.str('BudgetTimezone') || 'UTC'
  const spec = tokenlessSpec(who, model, timeZone)
  const local = checkLocally(spec, now)
  if (local) throw walletRefusal(local.code, local.retryAfterMs, rateLimitHeaders(localStatus(spec, now)))
  let counted = false
  const keys = new RequestKeys(undefined, (id, hash) => isFrozen(id, keyFreezeName(hash)))
  const tried = new Set<number>()
  let lastError = `No available realtime channel for model "${model}" in group "${auth.group}".`
  for (let attempt = 0; attempt <= settings.int('RetryTimes'); attempt++) {
    const channel = selectChannel(table, { group: auth.group, model, tried, isFrozen, hasTools: false })
    if (!channel) break
    tried.add(channel.id)
    if (!REALTIME_TYPES.has(channel.type)) continue
    const { upstream: upstreamModel, billed } = mapModel(channel, model)
    const price = resolvePrice(prices, billed, settings)
    if (!price) throw new ApiError(400, `The model "${billed}" has no price on this gateway; ask the administrator to set one.`, { code: 'model_not_priced', param: 'model' })
    const billing = new RealtimeBilling(wallet, {
      userId: auth.userId,
      tokenId: auth.id,
      sessionId: reqId,
      channelId: channel.id,
      price,
      groupRatio: ratio,
      log: {
        type: LOG_TYPE.CONSUME,
        username: auth.username,
        tokenName: auth.name,
        tokenId: auth.id,
        modelName: model,
        channelId: channel.id,
        isStream: true,
        sourceIp: clientIp(c.req),
        requestId: reqId,
        upstreamModel,
      },
      metadata: { billed_model: billed, group: auth.group, inbound_format: 'realtime' },
      limits: tokenlessSpec(who, model, timeZone, counted),
    })
    const refused = await billing.open()
    if (refused?.reason === 'insufficient_user_quota') {
      throw new ApiError(429, 'Your balance is too low for a realtime session.', { code: 'insufficient_quota', type: 'insufficient_quota' })
    }
    if (refused) throw walletRefusal(refused.reason, refused.retryAfterMs, rateLimitHeaders(localStatus(spec, now)))
    if (!counted) {
      admitLocally(spec, reqId, now)
      settleLocally(reqId, 0)
      counted = true
    }
    // A key pool's keys take turns (frozen and auto-disabled ones are skipped), as on the relay.
    const upstream = await connect(keys.use(channel), upstreamModel)
    if (typeof upstream === 'string') {
      lastError = upstream
      continue
    }
    return bridge(c, upstream, billing, protocols.includes('realtime'))
  }
  throw new ApiError(502, lastError, { code: 'upstream_error' })
}

/** Joins the client and upstream sockets; bills each response.done; ends both sides together. */
function bridge(c: Context<HonoEnv>, upstream: WebSocket, billing: RealtimeBilling, echoRealtime: boolean): Response {
  const pair = new WebSocketPair()
  const [client, server] = [pair[0], pair[1]]
  server.accept()
  let open = true
  const end = (code = 1000, reason = '') => {
    if (!open) return
    open = false
    for (const ws of [server, upstream]) {
      try {
        ws.close(code, reason)
      } catch {
        // already closed
      }
    }
    c.executionCtx.waitUntil(billing.close())
  }
  const outOfMoney = () => {
    if (!open) return
    server.send(errorEvent('insufficient_quota', 'Your balance is too low to continue this realtime session.'))
    end(1008, 'insufficient quota')
  }
  server.addEventListener('message', (ev) => {
    if (!open) return
    if (typeof ev.data === 'string' && ev.data.includes('"response.create"') && !billing.canStart()) {
      try {
        if ((JSON.parse(ev.data) as { type?: unknown }).type === 'response.create') return outOfMoney()
      } catch {
        // not JSON: forwarded as is
      }
    }
    upstream.send(ev.data)
  })
  upstream.addEventListener('message', (ev) => {
    if (!open) return
    server.send(ev.data)
    if (typeof ev.data !== 'string' || !ev.data.includes('"response.done"')) return
    let event: { type?: unknown; response?: { id?: unknown; usage?: Record<string, unknown> } }
    try {
      event = JSON.parse(ev.data)
    } catch {
      return
    }
    const usage = event.type === 'response.done' ? realtimeUsage(event.response?.usage) : undefined
    if (!usage) return
    c.executionCtx.waitUntil(
      billing
        .charge(usage, String(event.response?.id ?? ''))
        .then(() => {
          if (billing.exhausted) outOfMoney()
        })
        .catch((err) => console.error(`[${c.get('requestId')}] realtime billing failed`, err))
    )
  })
  server.addEventListener('close', (ev) => end(ev.code === 1005 ? 1000 : ev.code, ev.reason))
  upstream.addEventListener('close', (ev) => end(ev.code === 1005 ? 1000 : ev.code, ev.reason))
  server.addEventListener('error', () => end(1011, 'client error'))
  upstream.addEventListener('error', () => end(1011, 'upstream error'))
  return new Response(null, { status: 101, webSocket: client, headers: echoRealtime ? { 'sec-websocket-protocol': 'realtime' } : {} })
}
