/**
 * Per-IP throttling of critical routes (login, register, verification, reset, payment notifies) through the
 * RateLimiter Durable Object. Default 20 requests per 20 minutes per IP and bucket, like one-hub;
 * the `CRITICAL_RATE_LIMIT` variable raises it (the test server does). IPv6 addresses count per /64.
 */
import { createMiddleware } from 'hono/factory'
import { tooManyRequests } from '../lib/errors'
import type { HonoEnv } from '../env'
import { ipBucket } from '../lib/cidr'
import { clientIp } from '../lib/client-ip'
import { config } from '../lib/env'

const WINDOW_MS = 20 * 60 * 1000

/**
 * `policy` replaces the default limit and window for routes machines call in bursts (payment
 * notifies: gateways retry, so a refused burst is delivered later).
 */
export function criticalRateLimit(bucket: string, policy: { limit: number; windowMs: number } | undefined = undefined) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    const limit = policy?.limit ?? config(c.env).criticalRateLimit
    const stub = c.env.RATE_LIMITER.getByName(`${bucket}:${ipBucket(clientIp(c.req))}`)
    const result = await stub.hit(limit, policy?.windowMs ?? WINDOW_MS)
    if (!result.allowed) {
      c.header('Retry-After', String(Math.ceil((result.resetAt - Date.now()) / 1000)))
      throw tooManyRequests()
    }
    await next()
  })
}
