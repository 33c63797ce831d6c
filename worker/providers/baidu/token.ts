/**
 * Baidu Qianfan legacy credentials: an application's `APIKey|SecretKey` is exchanged at
 * `/oauth/2.0/token` (client_credentials) for an access token, cached per key until an hour before
 * it expires (tokens live 30 days).
 */

export type Fetcher = (req: Request) => Promise<Response>

export const BAIDU_AIP_URL = 'https://aip.baidubce.com'
const REFRESH_MARGIN_S = 3600

/** `APIKey|SecretKey` → its parts, or undefined for any other key (a v2 bearer key). */
export function splitLegacyKey(key: string): { apiKey: string; secretKey: string } | undefined {
  const parts = key.split('|').map((p) => p.trim())
  return parts.length === 2 && parts.every(Boolean) ? { apiKey: parts[0]!, secretKey: parts[1]! } : undefined
}

export function accessTokenSource(fetcher: Fetcher, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const cache = new Map<string, { token: string; expiresAt: number }>()
  return async function accessToken(baseUrl: string, key: { apiKey: string; secretKey: string }): Promise<string> {
    const cacheKey = `${baseUrl}|${key.apiKey}|${key.secretKey}`
    const hit = cache.get(cacheKey)
    const t = now()
    if (hit && hit.expiresAt - REFRESH_MARGIN_S > t) return hit.token
    const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: key.apiKey, client_secret: key.secretKey })
    const res = await fetcher(new Request(`${baseUrl.replace(/\/+$/, '')}/oauth/2.0/token?${query}`, { method: 'POST', headers: { accept: 'application/json' } }))
    const text = await res.text()
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = {}
    }
    if (typeof body.access_token !== 'string') {
      throw new Error(`Baidu access token request failed (${res.status}): ${body.error_description ?? body.error ?? text.slice(0, 200)}`)
    }
    if (cache.size > 1000) cache.clear()
    cache.set(cacheKey, { token: body.access_token, expiresAt: t + Number(body.expires_in ?? 2_592_000) })
    return body.access_token
  }
}
