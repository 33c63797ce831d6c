/**
 * One upstream attempt: build the supplier request through the adapter (with the channel's extra
 * headers and parameters), fetch it with a header timeout, and classify the outcome as an answer
 * or a failure (status 0 = network error or malformed answer, -1 = timeout).
 */
import type { ProviderAdapter, RelayCall, UpstreamError } from '../providers/types'
import { readCapped } from '../providers/url'
import { ApiError } from '../lib/errors'
import type { RoutedChannel } from './types'
import { pluginHeaders } from '../providers/plugins'
import type { Network } from '../lib/proxy/proxy-fetch'
import { ProxyError } from '../lib/proxy/tunnel'

export type UpstreamOutcome = { ok: true; response: Response } | { ok: false; status: number; error: UpstreamError }

/** The client's body with the channel's custom parameters merged in (model and stream stay the client's). */
export function withChannelParameters(json: Record<string, unknown> | undefined, channel: RoutedChannel) {
  if (!json) return undefined
  const { model: _m, stream: _s, ...params } = channel.customParameter
  return Object.keys(params).length ? { ...json, ...params } : json
}

/**
 * `network`: what carries the call (network.ts) — the channel's proxy, `env.DIRECT_NETWORK`
 * under `npm start` (see worker/env.ts), otherwise the runtime's global `fetch`. A failing proxy is
 * this channel's failure (status 0, type proxy_error) like a failing connection.
 */
export async function callUpstream(adapter: ProviderAdapter, call: RelayCall, channel: RoutedChannel, timeoutMs: number, network?: Network): Promise<UpstreamOutcome> {
  let request: Request
  try {
    request = await adapter.buildRequest(call, channel)
  } catch (err) {
    // The client's own mistake (e.g. an image form the supplier cannot take) stays a client error.
    if (err instanceof ApiError) throw err
    // A key the adapter cannot use or a failed token exchange (Vertex): this channel failed, try another.
    return { ok: false, status: 0, error: { message: `channel could not build the request: ${(err as Error).message}`, type: 'channel_error' } }
  }
  const extra = { ...pluginHeaders(channel), ...channel.headers }
  if (Object.keys(extra).length) {
    const headers = new Headers(request.headers)
    for (const [k, v] of Object.entries(extra)) headers.set(k, String(v))
    request = new Request(request, { headers })
  }
  // A header timeout: the runtime's own timer (AbortSignal.timeout, nothing to clear) aborts the
  // fetch only until the headers arrive; a long stream after them is never cut by it.
  const abort = new AbortController()
  const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined
  const onTimeout = () => abort.abort()
  timeout?.addEventListener('abort', onTimeout)
  let response: Response
  try {
    response = await (network ? network.fetch(request, { signal: abort.signal }) : fetch(request, { signal: abort.signal }))
  } catch (err) {
    if (abort.signal.aborted) return { ok: false, status: -1, error: { message: `upstream did not answer within ${timeoutMs / 1000} s`, type: 'timeout' } }
    if (err instanceof ProxyError) return { ok: false, status: 0, error: { message: err.message, type: 'proxy_error' } }
    return { ok: false, status: 0, error: { message: `upstream connection failed: ${(err as Error).message}`, type: 'network_error' } }
  } finally {
    timeout?.removeEventListener('abort', onTimeout)
  }
  if (response.ok) return { ok: true, response: call.stream && adapter.toSseStream ? adapter.toSseStream(response) : response }
  const text = await readCapped(response).catch(() => '')
  return { ok: false, status: response.status, error: adapter.parseError(response.status, text) }
}

export function withModel(form: FormData, model: string): FormData {
  const copy = new FormData()
  for (const [k, v] of form.entries()) copy.append(k, v as string | Blob)
  copy.set('model', model)
  return copy
}

const PASS_HEADERS = ['content-type', 'content-length', 'content-disposition']
export function passHeaders(headers: Headers): Headers {
  const out = new Headers()
  for (const h of PASS_HEADERS) {
    const v = headers.get(h)
    if (v) out.set(h, v)
  }
  return out
}
