/**
 * The one error renderer. Every surface's `onError` (app.ts for /api and the OpenAI relay, the task
 * platforms, the inbound formats) turns what was thrown into an `ApiError` (errors.ts), logs a
 * server-side failure once through the request's logger (lib/logger.ts) and answers in the
 * surface's own envelope with the error's headers (Retry-After…). Only the envelope differs.
 */
import type { Context, ErrorHandler } from 'hono'
import type { HonoEnv } from '../env'
import { type ApiError, toApiError, withErrorHeaders } from './errors'
import { type Logger, requestLogger } from './logger'

/** A surface's failure body: the ApiError as that surface's clients expect it. */
export type ErrorEnvelope = (err: ApiError, c: Context<HonoEnv>) => Response

export interface RenderOptions {
  /** Whether a 5xx is the gateway's own failure worth a log line (default: every 5xx). */
  logged?: (err: ApiError) => boolean
}

/** The request's logger; a sub-app mounted without app.ts (a unit test) gets one made from its request id. */
export function requestLog(c: Context<HonoEnv>): Logger {
  return c.get('log') ?? requestLogger(c.get('requestId') ?? '')
}

export function renderFailure(c: Context<HonoEnv>, thrown: unknown, envelope: ErrorEnvelope, options: RenderOptions = {}): Response {
  const err = toApiError(thrown)
  if (err.status >= 500 && (options.logged?.(err) ?? true)) {
    requestLog(c).error('request failed', { method: c.req.method, path: c.req.path, status: err.status, code: err.code, error: err.cause ?? thrown })
  }
  return withErrorHeaders(err, envelope(err, c))
}

/** `app.onError(errorHandler(envelope))`. */
export const errorHandler =
  (envelope: ErrorEnvelope, options?: RenderOptions): ErrorHandler<HonoEnv> =>
  (thrown, c) =>
    renderFailure(c, thrown, envelope, options)

/** Logs the gateway's own 5xx only: a 502/503 is a supplier's failure the surface already reported (the task platforms). */
export const ownFailuresLogged: RenderOptions = { logged: (err) => err.status !== 502 && err.status !== 503 }
