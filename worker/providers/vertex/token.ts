/**
 * Vertex AI credentials: the channel key is a service-account JSON; its private key signs an RS256
 * JWT assertion that the token endpoint (`token_uri`) exchanges for an OAuth access token, cached
 * per service account until five minutes before it expires.
 */
import { importPKCS8, SignJWT } from 'jose'
import { keyProblemMessage } from '../../../shared/contract/key-format'

export interface ServiceAccount {
  client_email: string
  private_key: string
  private_key_id?: string
  project_id?: string
  token_uri?: string
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
const REFRESH_MARGIN_S = 300

/** Why a key cannot be a service-account JSON, or undefined (shared/contract/key-format.ts). */
export const serviceAccountProblem = (key: string) => keyProblemMessage(42, key)

export function parseServiceAccount(key: string): ServiceAccount {
  const problem = serviceAccountProblem(key)
  if (problem) throw new Error(problem)
  return JSON.parse(key) as ServiceAccount
}

/** The signed assertion (RS256, kid = private_key_id, one hour). */
export async function serviceAccountAssertion(sa: ServiceAccount, nowS: number = Math.floor(Date.now() / 1000)): Promise<string> {
  const key = await importPKCS8(sa.private_key, 'RS256')
  return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) })
    .setIssuer(sa.client_email)
    .setAudience(sa.token_uri || GOOGLE_TOKEN_URI)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + 3600)
    .sign(key)
}

export type Fetcher = (req: Request) => Promise<Response>

/** Access-token source with its own cache (one per adapter instance). */
export function tokenSource(fetcher: Fetcher, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const cache = new Map<string, { token: string; expiresAt: number }>()
  return async function accessToken(sa: ServiceAccount): Promise<string> {
    const cacheKey = `${sa.client_email}|${sa.private_key_id ?? ''}|${sa.token_uri ?? ''}`
    const hit = cache.get(cacheKey)
    const t = now()
    if (hit && hit.expiresAt - REFRESH_MARGIN_S > t) return hit.token
    const assertion = await serviceAccountAssertion(sa, t)
    const res = await fetcher(
      new Request(sa.token_uri || GOOGLE_TOKEN_URI, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      })
    )
    const text = await res.text()
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = {}
    }
    if (!res.ok || typeof body.access_token !== 'string') {
      throw new Error(`Vertex AI token request failed (${res.status}): ${body.error_description ?? body.error ?? text.slice(0, 200)}`)
    }
    if (cache.size > 1000) cache.clear()
    cache.set(cacheKey, { token: body.access_token, expiresAt: t + Number(body.expires_in ?? 3600) })
    return body.access_token
  }
}
