/**
 * Midjourney result images behind a proxy (setting MjImageProxy), so clients never see the
 * upstream's Discord CDN links when the administrator does not want them to:
 * - 'off': the upstream's link as it is;
 * - 'gateway': `<public base>/mj/image/<task id>?exp=<unix s>&sig=<HMAC>`, a short-lived link signed
 *   with the gateway's token secret; the route streams the task's image (the owner's API key works
 *   too, without a signature);
 * - 'worker': `<CFWorkerImageUrl>?url=<upstream link>&exp=<unix s>&sig=<HMAC>`, signed with
 *   CFWorkerImageKey (HMAC-SHA256 of `<url>:<exp>`, base62, 22 characters): the key itself never
 *   leaves the gateway; the image-proxy Worker recomputes the signature to check a link. Without
 *   the Worker's URL or key, 'worker' falls back to 'gateway'.
 * The gateway route checks the image link and each redirect against the SSRF guard.
 */
import type { Context } from 'hono'
import type { HonoEnv } from '../env'
import { ApiError } from '../lib/errors'
import { hmacBase62, safeEqual } from '../lib/crypto'
import { outboundUrlProblem, privateUpstreamsAllowed } from '../lib/outbound-url'
import { nowSeconds } from '../lib/time'
import { siteBaseUrl } from '../settings/site-url'
import { getSettings, getTokenSecret, type Settings } from '../settings/store'

/** How long a signed image link stays valid. */
export const IMAGE_LINK_SECONDS = 60 * 60
const SIG_LENGTH = 22

export type ImageRewrite = (taskId: number, url: string) => Promise<string>

const gatewaySig = (secret: string, taskId: number, exp: number) => hmacBase62(secret, `mj-image:${taskId}:${exp}`, SIG_LENGTH)

/** The rewrite for the current settings; `base` is the gateway's public base URL. */
export async function imageRewriter(env: Env, settings: Settings, base: string): Promise<ImageRewrite> {
  const mode = settings.str('MjImageProxy')
  const worker = settings.str('CFWorkerImageUrl').trim().replace(/\/+$/, '')
  const workerKey = settings.str('CFWorkerImageKey')
  // A Worker proxy without its URL or key falls back to the gateway: the admin asked for no upstream links.
  if (mode === 'gateway' || (mode === 'worker' && !(worker && workerKey))) {
    const secret = await getTokenSecret(env)
    return async (taskId, url) => {
      if (!url) return url
      const exp = nowSeconds() + IMAGE_LINK_SECONDS
      return `${base}/mj/image/${taskId}?exp=${exp}&sig=${await gatewaySig(secret, taskId, exp)}`
    }
  }
  if (mode === 'worker') {
    return async (_taskId, url) => {
      if (!url) return url
      const exp = nowSeconds() + IMAGE_LINK_SECONDS
      return `${worker}?url=${encodeURIComponent(url)}&exp=${exp}&sig=${await hmacBase62(workerKey, `${url}:${exp}`, SIG_LENGTH)}`
    }
  }
  return async (_taskId, url) => url
}

/** The rewrite for a request (public base: ServerAddress, else the request's origin). */
export async function requestImageRewriter(c: Context<HonoEnv>): Promise<ImageRewrite> {
  const settings = await getSettings(c.env, c.executionCtx)
  return imageRewriter(c.env, settings, siteBaseUrl(c, settings))
}

/** True when `sig` signs this task's image link and the link has not expired. */
export async function validImageSignature(env: Env, taskId: number, exp: string | undefined, sig: string | undefined): Promise<boolean> {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || Number(exp) < nowSeconds()) return false
  return safeEqual(await gatewaySig(await getTokenSecret(env), taskId, Number(exp)), sig)
}

const MAX_REDIRECTS = 3

/** Fetch an image link, checking it and every redirect against the SSRF guard. */
async function fetchChecked(env: Env, url: string): Promise<Response | undefined> {
  const signal = AbortSignal.timeout(20_000)
  let next = url
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let parsed: URL
    try {
      parsed = new URL(next)
    } catch {
      throw new ApiError(502, "The task's image link is not a valid URL.")
    }
    // Discord CDN links carry signed query strings; the host check is what matters here.
    const problem = outboundUrlProblem(`${parsed.origin}${parsed.pathname}`, privateUpstreamsAllowed(env))
    if (problem) throw new ApiError(502, `The task's image link is refused: it ${problem}.`)
    const res = await fetch(parsed, { signal, redirect: 'manual' }).catch(() => undefined)
    const location = res && res.status >= 300 && res.status < 400 ? res.headers.get('location') : null
    if (!location) return res
    await res!.body?.cancel()
    next = new URL(location, parsed).href
  }
  return undefined
}

/** Stream an upstream image to the client (http(s), no link-local/metadata hosts, image types only). */
export async function streamImage(env: Env, url: string): Promise<Response> {
  const res = await fetchChecked(env, url)
  if (!res || !res.ok || !res.body) throw new ApiError(502, `The image could not be fetched from the upstream${res ? ` (HTTP ${res.status})` : ''}.`)
  const type = res.headers.get('content-type') ?? ''
  return new Response(res.body, {
    headers: {
      'content-type': type.startsWith('image/') ? type : 'application/octet-stream',
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
      ...(res.headers.get('content-length') ? { 'content-length': res.headers.get('content-length')! } : {}),
    },
  })
}
