/**
 * Per-IP throttling of critical routes (login, register, verification, reset) through the
 * RateLimiter Durable Object. Default 20 requests per 20 minutes per IP and bucket, like one-hub;
 * the `CRITICAL_RATE_LIMIT` variable raises it (the test server does). IPv6 addresses count per /64.
 */
import { createMiddleware } from 'hono/factory'
import { tooManyRequests } from '../lib/errors'
import type { HonoEnv } from '../env'
import { ipBucket } from '../lib/cidr'

const WINDOW_MS = 20 * 60 * 1000
const DEFAULT_LIMIT = 20

export function clientIp(req: { header(name: string): string | undefined }): string {
  return req.header('cf-connecting-ip') ?? req.header('x-real-ip') ?? '127.0.0.1'
}

export function criticalRateLimit(bucket: string) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    const limit = Number(c.env.CRITICAL_RATE_LIMIT) || DEFAULT_LIMIT
    const stub = c.env.RATE_LIMITER.getByName(`${bucket}:${ipBucket(clientIp(c.req))}`)
    const result = await stub.hit(limit, WINDOW_MS)
    if (!result.allowed) {
      c.header('Retry-After', String(Math.ceil((result.resetAt - Date.now()) / 1000)))
      throw tooManyRequests()
    }
    await next()
  })
}
