/** Success envelope of the management API: `{success: true, message, data}`. */
import type { Context } from 'hono'

export interface Envelope<T> {
  success: true
  message: string
  data: T
}

export function ok<T>(c: Context, data?: T, message = ''): Response {
  return c.json({ success: true, message, data: data ?? null } satisfies Envelope<T | null>)
}

/** The page envelope of every management list (lib/paging.ts builds it). */
