/**
 * The one error helper. Code throws `ApiError`; `app.onError` renders it as the management
 * envelope `{success:false, message, code, request_id, data?}` on /api and as the OpenAI envelope
 * `{error:{message,type,code,param}}` on the relay. Unknown errors become 500 without leaking details.
 */
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { isManagementErrorCode, managementCodeOfStatus, type ManagementErrorBody, type ManagementErrorCode } from '../../shared/contract/errors'

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 502 | 503 | 504

/** OpenAI error `type` for each status, so the official SDKs raise the matching class. */
const OPENAI_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'server_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
}

export interface ApiErrorOptions {
  /** Machine-readable code (relay: OpenAI `code`, e.g. `insufficient_quota`). */
  code?: string
  /** Extra data for the management envelope (e.g. field messages). */
  data?: unknown
  /** OpenAI `param`. */
  param?: string | null
  /** OpenAI `type` override. */
  type?: string
  cause?: unknown
  /** Response headers the error carries (e.g. Retry-After on a 429), in every envelope. */
  headers?: Record<string, string>
}

export class ApiError extends HTTPException {
  readonly code: string | undefined
  readonly data: unknown
  readonly param: string | null
  readonly type: string
  readonly headers: Record<string, string> | undefined

  constructor(status: ErrorStatus, message: string, options: ApiErrorOptions = {}) {
    super(status, { message, cause: options.cause })
    this.headers = options.headers
    this.code = options.code
    this.data = options.data
    this.param = options.param ?? null
    this.type = options.type ?? OPENAI_TYPE[status] ?? 'api_error'
  }
}

export const badRequest = (message: string, data?: unknown) => new ApiError(400, message, { data })
export const unauthorized = (message = 'Not logged in or session expired') => new ApiError(401, message)
export const forbidden = (message = 'Permission denied') => new ApiError(403, message)
export const notFound = (message = 'Not found') => new ApiError(404, message)
export const conflict = (message: string) => new ApiError(409, message)
export const tooManyRequests = (message = 'Too many requests, please try again later') => new ApiError(429, message)

/** Set the error's own headers (Retry-After…) on the response that renders it. */
export function withErrorHeaders(err: ApiError, res: Response): Response {
  for (const [k, v] of Object.entries(err.headers ?? {})) res.headers.set(k, v)
  return res
}

/** The error's own code when it is a management code (e.g. `csrf`), else the one of its status. */
export function managementCode(err: ApiError): ManagementErrorCode {
  if (isManagementErrorCode(err.code)) return err.code
  return managementCodeOfStatus(err.status)
}

/** Management API body for a failure. */
export function managementBody(err: ApiError, requestId: string): ManagementErrorBody {
  const body: ManagementErrorBody = { success: false, message: err.message, code: managementCode(err), request_id: requestId }
  if (err.data !== undefined) body.data = err.data
  return body
}

/** Relay body for a failure, in the OpenAI envelope. */
export function openAIBody(err: ApiError, requestId?: string) {
  return {
    error: {
      message: requestId ? `${err.message} (request id: ${requestId})` : err.message,
      type: err.type,
      code: err.code ?? null,
      param: err.param,
    },
  }
}

/** Normalise anything thrown into an ApiError; unknown errors become a generic 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode
    const message = status === 413 ? 'Request body too large' : err.message || 'Request failed'
    return new ApiError((status >= 400 ? status : 500) as ErrorStatus, message)
  }
  return new ApiError(500, 'Internal server error', { cause: err })
}
