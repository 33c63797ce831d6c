/**
 * The OtlpHeaders setting's two spellings, parsed in one place: a JSON object of strings
 * (`{"x-api-key":"…"}`) or the OTEL_EXPORTER_OTLP_HEADERS form `k=v,k2=v2` (values may be
 * percent-encoded). The option check (option-checks.ts) and the trace exporter
 * (worker/lib/tracing/exporter.ts) both read it through parseOtlpHeaders.
 */

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** The headers, or an error message saying what is wrong (never echoing a value). */
export function parseOtlpHeaders(raw: string): { ok: true; headers: Record<string, string> } | { ok: false; message: string } {
  const text = raw.trim()
  if (text === '') return { ok: true, headers: {} }
  const headers: Record<string, string> = {}
  if (text.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return { ok: false, message: 'must be a JSON object or k=v,k2=v2' }
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, message: 'must be a JSON object of strings' }
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v !== 'string') return { ok: false, message: `the value of ${k} must be a string` }
      headers[k.trim()] = v
    }
  } else {
    for (const part of text.split(',')) {
      if (part.trim() === '') continue
      const eq = part.indexOf('=')
      if (eq <= 0) return { ok: false, message: 'must be a JSON object or k=v,k2=v2' }
      let value = part.slice(eq + 1).trim()
      try {
        value = decodeURIComponent(value)
      } catch {
        return { ok: false, message: `the value of ${part.slice(0, eq).trim()} is not valid percent-encoding` }
      }
      headers[part.slice(0, eq).trim()] = value
    }
  }
  for (const [k, v] of Object.entries(headers)) {
    if (!HEADER_NAME.test(k)) return { ok: false, message: `"${k.slice(0, 64)}" is not a valid header name` }
    if (/[\r\n\0]/.test(v)) return { ok: false, message: `the value of ${k} must be one line` }
  }
  return { ok: true, headers }
}
