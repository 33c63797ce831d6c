/**
 * RateLimiter: a fixed-window counter per key (e.g. `login:<ip>`), one object per key. Used for
 * the "critical" routes (login, register, verification mails, password reset). State is kept in
 * memory and in storage so a restart does not reset an abuser's window.
 */
import { DurableObject } from 'cloudflare:workers'

export interface RateLimitResult {
  allowed: boolean
  remaining: number
  resetAt: number
}

interface Window {
  start: number
  count: number
}

export class RateLimiter extends DurableObject {
  private window: Window | undefined

  hit(limit: number, windowMs: number): RateLimitResult {
    const now = Date.now()
    let w = this.window ?? this.ctx.storage.kv.get<Window>('w')
    if (!w || now - w.start >= windowMs) w = { start: now, count: 0 }
    w.count++
    this.window = w
    this.ctx.storage.kv.put('w', w)
    return { allowed: w.count <= limit, remaining: Math.max(0, limit - w.count), resetAt: w.start + windowMs }
  }
}
