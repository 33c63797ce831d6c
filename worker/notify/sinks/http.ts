/**
 * The HTTP half of the incoming-webhook sinks: a built request (URL, headers, body) posted with a
 * short timeout, the answer read as a SendOutcome. Sinks export their `build` so tests can check
 * the exact payload and signature without a network.
 */
import { headline, type Notice, type NotifySink, type SendOutcome, type SinkTarget } from '../types'

export interface BuiltRequest {
  url: string
  headers: Record<string, string>
  body: string
}

const POST_TIMEOUT_MS = 8000

/** POST the request; a 2xx whose JSON says `errcode`/`code` ≠ 0 (DingTalk, WeCom, Feishu) is a failure too. */
export async function post(req: BuiltRequest): Promise<SendOutcome> {
  try {
    const res = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...req.headers },
      body: req.body,
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    })
    const text = (await res.text()).slice(0, 1000)
    if (!res.ok) return { ok: false, httpStatus: res.status, error: `HTTP ${res.status}: ${text.slice(0, 300)}` }
    const code = bodyErrorCode(text)
    if (code) return { ok: false, httpStatus: res.status, error: `receiver refused: ${text.slice(0, 300)}` }
    return { ok: true, httpStatus: res.status, error: '' }
  } catch (err) {
    return { ok: false, httpStatus: 0, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }
  }
}

function bodyErrorCode(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    const code = body.errcode ?? body.code ?? body.StatusCode
    return typeof code === 'number' && code !== 0
  } catch {
    return false
  }
}

/** A sink that builds one JSON POST and sends it. */
export function httpSink(
  type: string,
  build: (target: SinkTarget, notice: Notice) => Promise<BuiltRequest>,
  opts: { urlQuery?: boolean } = {}
): NotifySink & { build: typeof build } {
  return { type, usesUrl: true, urlQuery: opts.urlQuery, requiredConfig: [], build, send: async (_env, target, notice) => post(await build(target, notice)) }
}

const enc = new TextEncoder()

/** HMAC-SHA256 of `message` with `key`, raw bytes. */
export async function hmacSha256(key: string, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', enc.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(message)))
}

export const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/** The plain-text rendering chat sinks share: headline, text, then the data as key: value lines. */
export function plainText(n: Notice): string {
  const lines = Object.entries(n.data).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
  return [`${headline(n)}`, n.text, ...lines, n.at].join('\n')
}
