/**
 * The one way worker code writes to the server log: structured JSON lines
 * `{"level","msg","time",...fields}`, one per call, that Workers Logs and `wrangler tail` index by field.
 * A request's logger (`c.var.log`, set by app.ts) carries its `request_id`; code without a request
 * (cron, Durable Objects, queues) calls `logger(fields)`. Secrets never reach the log: a field whose
 * name says it holds one (authorization, key, secret, password, token, cookie…) is written as
 * "[redacted]", and key-like text inside any string is masked by lib/redact.ts. Thrown errors become
 * `{name, message, stack}`.
 */
import { redactSecrets } from './redact'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type LogFields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  /** A logger that adds `fields` to every line (e.g. `{ user_id }` for a job's steps). */
  child(fields: LogFields): Logger
}

export const REDACTED = '[redacted]'

/** Field names whose values are secrets: `tokenId`, `keyHash` or `token_count` are not, `token`, `api_key` and `clientSecret` are. */
const SECRET_NAME =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|key|token|secret|password|passwd|pass|pin|otp|totp|sign|signature|credentials?)$|(?:api|access|refresh|id|bearer|session|private|secret|sign|mj)[-_]?(?:key|token|secret)$|(?:secret|password|passwd)$/i

const MAX_DEPTH = 4

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value)
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value
  if (value instanceof Error) {
    const out: LogFields = { name: value.name, message: redactSecrets(value.message) }
    if (value.stack) out.stack = redactSecrets(value.stack)
    if (value.cause !== undefined && depth < MAX_DEPTH) out.cause = clean(value.cause, depth + 1)
    return out
  }
  if (depth >= MAX_DEPTH) return '[truncated]'
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1))
  if (value instanceof Headers) return clean(Object.fromEntries(value), depth)
  const out: LogFields = {}
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_NAME.test(k) && v != null && v !== '' ? REDACTED : clean(v, depth + 1)
  return out
}

/** The JSON line for one entry (exported for the tests). */
export function logLine(level: LogLevel, msg: string, fields: LogFields): string {
  const entry = { level, msg: redactSecrets(msg), time: new Date().toISOString(), ...(clean(fields, 0) as LogFields) }
  try {
    return JSON.stringify(entry)
  } catch {
    // A circular structure: keep the message and say why the fields are missing.
    return JSON.stringify({ level, msg: entry.msg, time: entry.time, fields_error: 'not serialisable' })
  }
}

/** The logger is the one module that writes to the console (biome.json allows it here only). */
const WRITE: Record<LogLevel, (line: string) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.info(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
}

/** A logger whose every line carries `base` (a request's logger adds `request_id`). */
export function logger(base: LogFields = {}): Logger {
  const write = (level: LogLevel) => (msg: string, fields?: LogFields) => WRITE[level](logLine(level, msg, fields ? { ...base, ...fields } : base))
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => logger({ ...base, ...fields }),
  }
}

/** The logger of one request: every line carries its id. */
export const requestLogger = (requestId: string, fields: LogFields = {}): Logger => logger({ request_id: requestId, ...fields })
