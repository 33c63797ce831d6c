/**
 * W3C Trace Context for the relay's traces: parsing a client's `traceparent` (version 00 and the
 * forward-compatible rule for later versions), new trace and span ids, and the head-sampling
 * decision made once when a request's trace would start. A client's sampled flag always traces the
 * request; otherwise (no parent, or an unsampled one) the trace id decides against the rate, so
 * every service sampling by trace id agrees on the same traces.
 */

export interface ParentContext {
  traceId: string
  spanId: string
  sampled: boolean
}

const HEX_ID = /^[0-9a-f]+$/

const isValidId = (id: string, length: number) => id.length === length && HEX_ID.test(id) && !/^0+$/.test(id)

/** The parent a `traceparent` header names, or undefined when it is absent or malformed (then a new trace starts). */
export function parseTraceparent(header: string | null | undefined): ParentContext | undefined {
  if (!header) return undefined
  const parts = header.trim().split('-')
  if (parts.length < 4) return undefined
  const [version, traceId, spanId, flags] = parts as [string, string, string, string]
  if (version.length !== 2 || !HEX_ID.test(version) || version === 'ff') return undefined
  // Version 00 has exactly four fields; a later version may add fields after them.
  if (version === '00' && parts.length !== 4) return undefined
  if (!isValidId(traceId, 32) || !isValidId(spanId, 16)) return undefined
  if (flags.length !== 2 || !HEX_ID.test(flags)) return undefined
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 }
}

/** The `traceparent` naming `spanId` of `traceId` (version 00). */
export const formatTraceparent = (traceId: string, spanId: string, sampled: boolean) => `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`

function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes))
  let out = ''
  for (const b of buf) out += b.toString(16).padStart(2, '0')
  // An all-zero id is invalid; the chance is nil, but the rule is cheap.
  return /^0+$/.test(out) ? randomHex(bytes) : out
}

export const newTraceId = () => randomHex(16)
export const newSpanId = () => randomHex(8)

/**
 * Head sampling: whether a request is traced. `rate` is the OtlpSampleRate setting (0–1); the last
 * 52 bits of the trace id (random per W3C Trace Context level 2) are compared with it.
 */
export function shouldSample(rate: number, traceId: string, parent: ParentContext | undefined): boolean {
  if (parent?.sampled) return true
  if (!(rate > 0)) return false
  if (rate >= 1) return true
  return Number.parseInt(traceId.slice(-13), 16) / 2 ** 52 < rate
}
