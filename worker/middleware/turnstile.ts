/**
 * Cloudflare Turnstile gate for login, register, verification-code and password-reset calls.
 * When TurnstileCheckEnabled is on, the caller must send a token (query `turnstile`, header
 * `X-Turnstile-Token`, or JSON body field `turnstile`), verified server-side at siteverify with
 * TurnstileSecretKey and the client IP. Refuses with 403 'Turnstile token is empty' or
 * 'Turnstile verification failed'. Reading the body here goes through `c.req.json()`, which Hono
 * caches, so the route's validator can still read it.
 */
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { forbidden } from '../lib/errors'
import { getSettings } from '../settings/store'
import type { HonoEnv } from '../env'
import { clientIp } from '../lib/client-ip'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'turnstile' })

export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'
const MAX_TOKEN_LENGTH = 2048

async function tokenFrom(c: Context<HonoEnv>): Promise<string> {
  const fromQuery = c.req.query('turnstile') ?? c.req.header('x-turnstile-token')
  if (fromQuery) return fromQuery
  if (!(c.req.header('content-type') ?? '').includes('application/json')) return ''
  try {
    const body = (await c.req.json()) as unknown
    if (body && typeof body === 'object' && 'turnstile' in body && typeof body.turnstile === 'string') return body.turnstile
  } catch {
    // Malformed JSON: the route's validator reports it.
  }
  return ''
}

export async function verifyTurnstileToken(secret: string, token: string, ip: string): Promise<boolean> {
  const form = new URLSearchParams({ secret, response: token, remoteip: ip })
  try {
    const res = await fetch(SITEVERIFY_URL, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) })
    if (!res.ok) return false
    const result = (await res.json()) as { success?: boolean }
    return result.success === true
  } catch (err) {
    serverLog.error('siteverify failed', { error: err })
    return false
  }
}

export function turnstile() {
  return createMiddleware<HonoEnv>(async (c, next) => {
    const settings = await getSettings(c.env, c.executionCtx)
    if (settings.bool('TurnstileCheckEnabled')) {
      const token = (await tokenFrom(c)).trim()
      if (!token) throw forbidden('Turnstile token is empty')
      if (token.length > MAX_TOKEN_LENGTH || !(await verifyTurnstileToken(settings.str('TurnstileSecretKey'), token, clientIp(c.req)))) {
        throw forbidden('Turnstile verification failed')
      }
    }
    await next()
  })
}
