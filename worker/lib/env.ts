/**
 * The Worker's string variables and secrets (wrangler.toml [vars], `wrangler secret put`, the VARS
 * of `npm start`), checked by one zod schema and typed: code reads `config(env).testClock`, never
 * `(env as X).TEST_CLOCK === '1'`. The parse runs once per env object (a WeakMap keyed by it: the
 * runtime hands every request of an isolate the same env, so the relay's hot path pays a map
 * lookup). A malformed variable is written to the log once and every caller gets a 500
 * `ApiError` naming the variable (never its value), so a typo fails loudly instead of silently
 * turning a feature off.
 */
import { z } from 'zod'
import { isIp } from './cidr'
import { ApiError } from './errors'
import { isBasePath, normalizeBasePath } from './base-path'
import { logger } from './logger'

const serverLog = logger({ module: 'env' })

/** Proxy headers CLIENT_IP_HEADER may name (lib/client-ip.ts believes no other). */
export const PROXY_HEADERS = ['x-real-ip', 'x-forwarded-for', 'true-client-ip'] as const

/** Wrangler vars may be written as TOML numbers or booleans; compare them as text. */
const text = z.preprocess((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v), z.string().optional())

/** Optional text: unset and empty are the same. */
const optionalText = text.transform((v) => (v === undefined || v.trim() === '' ? undefined : v))

/** An on/off switch: "1" is on; unset, empty or "0" is off; anything else is refused. */
const flag = text.refine((v) => v === undefined || v === '' || v === '0' || v === '1', 'must be "1" or "0"').transform((v) => v === '1')

/** A whole number ≥ `min` written as digits, or `fallback` when unset or empty. */
const wholeNumber = (min: number, fallback: number) =>
  text
    .refine(
      (v) => v === undefined || v.trim() === '' || (/^\d+$/.test(v.trim()) && Number(v) >= min && Number.isSafeInteger(Number(v))),
      `must be a whole number of at least ${min}`
    )
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : Number(v)))

const envSchema = z.object({
  APP_VERSION: optionalText.transform((v) => v ?? '0.0.0'),
  /** Requests per IP per 20 minutes on login, register, verification and reset routes. */
  CRITICAL_RATE_LIMIT: wholeNumber(1, 20),
  SETUP_CODE: optionalText,
  SETUP_CODE_ALWAYS: flag,
  TOKEN_SECRET: optionalText,
  CLIENT_IP_HEADER: optionalText
    .transform((v) => v?.trim().toLowerCase())
    .refine((v) => v === undefined || (PROXY_HEADERS as readonly string[]).includes(v), `must be one of ${PROXY_HEADERS.join(', ')}`),
  TEST_CLOCK: flag,
  ALLOW_PRIVATE_UPSTREAMS: flag,
  SELF_HOSTED_CLIENT_IP: optionalText.refine((v) => v === undefined || v === 'unknown' || isIp(v), 'must be an IP address or "unknown"'),
  SELF_HOSTED_DRAIN_TOKEN: optionalText,
  DO_LATENCY_TEST: flag,
  DO_LATENCY_MS: wholeNumber(0, 0),
  BASE_PATH: optionalText.refine((v) => v === undefined || isBasePath(v), 'must be a path such as /gw (letters, digits, . _ ~ -)').transform((v) => normalizeBasePath(v)),
  CONSOLE_ORIGINS: optionalText
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
    )
    .refine((list) => list.every(isOrigin), 'must be comma-separated origins such as https://console.example.com (scheme and host, no path)'),
})

/** An origin as a browser sends it: http(s), a host, an optional port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}

/** The checked variables, in code's spelling. */
export interface EnvConfig {
  appVersion: string
  criticalRateLimit: number
  setupCode: string | undefined
  setupCodeAlways: boolean
  tokenSecret: string | undefined
  /** Lower-case proxy header the operator trusts, if any. */
  clientIpHeader: (typeof PROXY_HEADERS)[number] | undefined
  testClock: boolean
  allowPrivateUpstreams: boolean
  /** Set by `npm start` (scripts/serve.mjs) to what the socket knows about the peer. */
  selfHostedClientIp: string | undefined
  /** Set by `npm start`: the secret of its graceful-stop request (lib/self-hosted.ts). */
  selfHostedDrainToken: string | undefined
  /** Injected Durable Object latency in ms; 0 unless DO_LATENCY_TEST is "1". */
  doLatencyMs: number
  /** The sub-path the site is served under ("" at the root; "/gw" otherwise): lib/base-path.ts. */
  basePath: string
  /** Origins of consoles served elsewhere that may call /api with credentials (middleware/console-cors.ts). */
  consoleOrigins: string[]
}

const cache = new WeakMap<object, EnvConfig | ApiError>()

function parse(env: object): EnvConfig | ApiError {
  const result = envSchema.safeParse(env)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`)
    serverLog.error('invalid Worker variables', { problems })
    const names = [...new Set(result.error.issues.map((i) => i.path.join('.')))]
    return new ApiError(500, `The gateway is misconfigured: ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} invalid (see the server log)`)
  }
  const v = result.data
  return {
    appVersion: v.APP_VERSION,
    criticalRateLimit: v.CRITICAL_RATE_LIMIT,
    setupCode: v.SETUP_CODE,
    setupCodeAlways: v.SETUP_CODE_ALWAYS,
    tokenSecret: v.TOKEN_SECRET,
    clientIpHeader: v.CLIENT_IP_HEADER as EnvConfig['clientIpHeader'],
    testClock: v.TEST_CLOCK,
    allowPrivateUpstreams: v.ALLOW_PRIVATE_UPSTREAMS,
    selfHostedClientIp: v.SELF_HOSTED_CLIENT_IP,
    selfHostedDrainToken: v.SELF_HOSTED_DRAIN_TOKEN,
    doLatencyMs: v.DO_LATENCY_TEST ? v.DO_LATENCY_MS : 0,
    basePath: v.BASE_PATH,
    consoleOrigins: v.CONSOLE_ORIGINS,
  }
}

/** The env's checked variables, parsed on first use; throws a 500 `ApiError` when one is malformed. */
export function config(env: object): EnvConfig {
  let entry = cache.get(env)
  if (entry === undefined) {
    entry = parse(env)
    cache.set(env, entry)
  }
  if (entry instanceof ApiError) throw entry
  return entry
}

/** Let `copy` (an env rebuilt from `env`, e.g. with wrapped bindings) reuse `env`'s parse. */
export function shareConfig(env: object, copy: object): void {
  const entry = cache.get(env)
  if (entry !== undefined) cache.set(copy, entry)
}

/** Whether a request's Origin is one of CONSOLE_ORIGINS (a console served elsewhere: middleware/console-cors.ts). */
export function isConsoleOrigin(env: object, origin: string | undefined): origin is string {
  return origin !== undefined && config(env).consoleOrigins.includes(origin)
}
