/**
 * Outbound calls to identity providers: JSON in and out with a timeout. Network failures and
 * unreadable answers become 502 '<provider> is unreachable'; an answer that refuses the login
 * becomes 400 '<provider> login failed: <reason>' via `providerError`.
 */
import { ApiError } from '../../lib/errors'

const TIMEOUT_MS = 10_000

export const providerError = (label: string, reason: string) => new ApiError(400, `${label} login failed: ${reason.slice(0, 200)}`, { code: 'oauth_provider_error' })

export async function fetchJson<T>(label: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  let res: Response
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (err) {
    throw new ApiError(502, `${label} is unreachable`, { cause: err })
  }
  const text = await res.text()
  try {
    return { status: res.status, body: JSON.parse(text) as T }
  } catch (err) {
    throw new ApiError(502, `${label} answered with status ${res.status} and no JSON`, { cause: err })
  }
}
