/**
 * The console's HTTP client: fetch with the session cookie (same origin, or the gateway named at
 * build time: api-origin.ts), the CSRF token echoed in `X-XSRF-TOKEN` (read from the `XSRF-TOKEN`
 * cookie, or from the gateway's header when the cookie lives on another host), JSON in and out, and the `{success, message, data}` envelope unwrapped.
 * Every failure becomes an `ApiError` carrying the HTTP status, the machine `code` (branch on it,
 * never on the message text), the server message, the `request_id` and, for 400s, the per-field
 * messages (`data.fields`). A `step_up_required` refusal opens the password dialog (lib/step-up.ts)
 * and the call is retried once after it.
 */
import { isManagementErrorCode, managementCodeOfStatus, type ManagementErrorCode } from '@contract/errors'
import type { StepUpRequiredData } from '@contract/sessions'
import { STEP_UP_PATH, askStepUp } from './step-up'
import { API_ORIGIN, apiCredentials, apiUrl } from './api-origin'

export interface Envelope<T> {
  success: boolean
  message: string
  data: T
}

export class ApiError extends Error {
  readonly status: number
  readonly fields: Record<string, string>
  /** The server's code; for a body without one (a proxy's page), the code of the status. `network` when no answer came. */
  readonly code: ManagementErrorCode | 'network'
  /** The server's request id (also in the X-Request-Id header), when it answered. */
  readonly requestId: string | undefined

  constructor(status: number, message: string, fields: Record<string, string> = {}, server: { code?: unknown; request_id?: unknown } = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.fields = fields
    this.code = status === 0 ? 'network' : isManagementErrorCode(server.code) ? server.code : managementCodeOfStatus(status)
    this.requestId = typeof server.request_id === 'string' ? server.request_id : undefined
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError

type Query = Record<string, string | number | boolean | undefined | null>

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  query?: Query
  signal?: AbortSignal
  headers?: Record<string, string>
  /** Set on the retry after a step-up, so a second refusal is not asked again. */
  steppedUp?: boolean
}

/** API paths are absolute to the site; the console may live under a base path, the API does not. */
function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
  }
  const qs = params.toString()
  return qs ? `${apiUrl(path)}?${qs}` : apiUrl(path)
}

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`
  for (const part of document.cookie.split(';')) {
    const item = part.trim()
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length))
  }
  return undefined
}

/** The CSRF token the gateway last sent in its header (a console on another origin cannot read the cookie). */
let headerToken: string | undefined

/** Remembers the token of a gateway answer (sent only to a console origin the gateway lists). */
export function noteXsrfToken(res: Response) {
  const token = res.headers.get('X-XSRF-TOKEN')
  if (token) headerToken = token
}

/** The CSRF token to echo: the cookie's (over https named __Host-XSRF-TOKEN, which no subdomain can plant), else the header's. */
export function xsrfToken(): string | undefined {
  return readCookie('__Host-XSRF-TOKEN') ?? readCookie('XSRF-TOKEN') ?? headerToken
}

/** Performs the call and returns the whole success envelope (for callers that want `message`). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  // A console on another origin has no token until the gateway answered once: ask for one first.
  if (API_ORIGIN && !xsrfToken() && (options.method ?? 'GET') !== 'GET') {
    await fetch(apiUrl('/api/status'), { credentials: apiCredentials, headers: { Accept: 'application/json' } })
      .then(noteXsrfToken)
      .catch(() => undefined)
  }
  const xsrf = xsrfToken()
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf
  let body: string | undefined
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  let res: Response
  try {
    res = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      credentials: apiCredentials,
      headers,
      body,
      signal: options.signal,
    })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, err instanceof Error ? err.message : String(err))
  }
  noteXsrfToken(res)
  let payload: Partial<Envelope<T>> | undefined
  try {
    payload = (await res.json()) as Partial<Envelope<T>>
  } catch {
    payload = undefined
  }
  if (!res.ok || !payload || payload.success !== true) {
    const data = payload?.data as { fields?: Record<string, string> } | undefined
    const message = payload?.message || res.statusText || `HTTP ${res.status}`
    const err = new ApiError(res.status, message, data?.fields ?? {}, payload as { code?: unknown; request_id?: unknown } | undefined)
    // A sensitive action: ask for the password (StepUpDialog), then send the same call once more.
    if (err.code === 'step_up_required' && !options.steppedUp && path !== STEP_UP_PATH && (await askStepUp(payload?.data as StepUpRequiredData))) {
      return request<T>(path, { ...options, steppedUp: true })
    }
    throw err
  }
  return { success: true, message: payload.message ?? '', data: payload.data as T }
}

/** Shorthands returning only `data`. */
export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { query, signal }).then((r) => r.data),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }).then((r) => r.data),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body }).then((r) => r.data),
  delete: <T>(path: string) => request<T>(path, { method: 'DELETE' }).then((r) => r.data),
}
