/**
 * The management API's failure body and its machine codes. Every `/api` failure answers
 * `{success:false, message, code, request_id, data?}`: `message` is for people (it may change),
 * `code` is for programs (the console branches on it), `request_id` matches the `X-Request-Id`
 * header and the server log line.
 */

export const MANAGEMENT_ERROR_CODES = [
  /** 400, 413, 415: the request or one of its fields is invalid (`data.fields` names them). */
  'validation_failed',
  /** 401: no session or token, or it expired. */
  'unauthorized',
  /** 402: the account's balance does not cover the action. */
  'insufficient_quota',
  /** 403: signed in, but not allowed. */
  'forbidden',
  /** 403: the XSRF token is missing or stale; reloading the page fixes it. */
  'csrf',
  /** 403: an administrator must turn on two-factor sign-in (Require2FAForAdmins) before using admin routes. */
  '2fa_setup_required',
  /** 403: a sensitive action needs the password confirmed in the last 10 minutes (POST /api/user/step_up, then retry). */
  'step_up_required',
  /** 404: the addressed record does not exist. */
  'not_found',
  /** 404: no such endpoint (an older server, or a mistyped path). */
  'route_not_found',
  /** 405: the method is refused (read-only demo sites answer every write with it). */
  'method_not_allowed',
  /** 409: the change clashes with existing data (a taken name, a stale version). */
  'conflict',
  /** 429: too many requests; retry after the `Retry-After` header. */
  'rate_limited',
  /** 502, 503, 504: an upstream service failed or timed out. */
  'upstream_failed',
  /** 500: anything else; details are only in the server log under `request_id`. */
  'internal',
] as const

export type ManagementErrorCode = (typeof MANAGEMENT_ERROR_CODES)[number]

export interface ManagementErrorBody {
  success: false
  message: string
  code: ManagementErrorCode
  request_id: string
  data?: unknown
}

/** The code of each failing status, when the error names none of its own (also the console's fallback for bodies without a code). */
export function managementCodeOfStatus(status: number): ManagementErrorCode {
  if (status === 400 || status === 413 || status === 415) return 'validation_failed'
  if (status === 502 || status === 503 || status === 504) return 'upstream_failed'
  const byStatus: Record<number, ManagementErrorCode> = {
    401: 'unauthorized',
    402: 'insufficient_quota',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    429: 'rate_limited',
  }
  return byStatus[status] ?? 'internal'
}

export const isManagementErrorCode = (value: unknown): value is ManagementErrorCode => typeof value === 'string' && (MANAGEMENT_ERROR_CODES as readonly string[]).includes(value)
