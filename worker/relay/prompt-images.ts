/**
 * Image URLs in chat prompts that the gateway fetches itself and sends to the supplier inline
 * (one-hub's ChatImageRequestProxy). Which images: every http(s) image URL when root set
 * `ChatImageRequestProxy` (the downloads then leave through that http or socks5 proxy), otherwise
 * only for suppliers that cannot fetch URLs at all (registry.ts `inlineImages`: Gemini, Bedrock);
 * everyone else gets the URL as the client sent it. Every download passes the users' outbound
 * guard (outbound-url.ts userUrlProblem, http allowed; each redirect hop checked again), must
 * answer an image/* content type and stays under IMAGE_MAX_BYTES for the whole request within
 * IMAGE_TIMEOUT_MS. A refused image is the client's 400 (rendered in the inbound format's envelope,
 * the hold refunded). A request without image URLs costs one pass over its message parts.
 *
 * The relay replaces the URLs in the chat body; native pass-throughs (an Anthropic or Gemini client
 * on its own supplier) replace them in the client's body with withInlineImages too.
 */
import { ApiError } from '../lib/errors'
import { userUrlProblem } from '../lib/outbound-url'
import type { Network } from '../lib/proxy/proxy-fetch'
import type { ChannelType } from '../providers/registry'
import type { Settings } from '../settings/store'
import { channelNetwork } from '../channels/network'

/** Bytes of all images one request may have fetched (base64 makes them a third larger upstream). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024
/** Time all of one request's downloads may take together. */
export const IMAGE_TIMEOUT_MS = 20_000
const MAX_REDIRECTS = 3
/** Links to a supplier's own file store or to videos: the supplier reads them, the gateway never fetches them. */
const NEVER_FETCHED = new Set(['generativelanguage.googleapis.com', 'youtube.com', 'www.youtube.com', 'youtu.be'])

export interface InlineImage {
  mimeType: string
  /** Base64 of the image bytes. */
  data: string
}

/** The http(s) image URLs of a chat body's messages (data: URLs and suppliers' own file links left out). */
export function promptImageUrls(json: Record<string, unknown> | undefined): string[] {
  const messages = json?.messages
  if (!Array.isArray(messages)) return []
  const urls = new Set<string>()
  for (const m of messages) {
    const content = (m as { content?: unknown } | null)?.content
    if (!Array.isArray(content)) continue
    for (const p of content) {
      if ((p as { type?: unknown } | null)?.type !== 'image_url') continue
      const ref = (p as { image_url?: unknown }).image_url
      const url = typeof ref === 'string' ? ref : (ref as { url?: unknown } | null)?.url
      if (typeof url === 'string' && /^https?:\/\//i.test(url) && !neverFetched(url)) urls.add(url)
    }
  }
  return [...urls]
}

function neverFetched(url: string): boolean {
  try {
    return NEVER_FETCHED.has(new URL(url).hostname.toLowerCase())
  } catch {
    return false
  }
}

/** One request's image downloads: each URL fetched at most once across retries, one byte budget and deadline. */
export class PromptImages {
  private readonly fetched = new Map<string, Promise<InlineImage>>()
  private left = IMAGE_MAX_BYTES
  private deadline: AbortSignal | undefined

  private constructor(
    private readonly env: Env,
    private readonly urls: string[],
    private readonly proxy: string
  ) {}

  /** Undefined when the request has no image URL (nothing to do, nothing allocated). */
  static of(env: Env, settings: Settings, json: Record<string, unknown> | undefined): PromptImages | undefined {
    const urls = promptImageUrls(json)
    return urls.length ? new PromptImages(env, urls, settings.str('ChatImageRequestProxy').trim()) : undefined
  }

  /** The images to send inline to a channel of this type (undefined: send the URLs as they are). */
  async forChannel(type: Pick<ChannelType, 'inlineImages'>): Promise<Map<string, InlineImage> | undefined> {
    if (!this.proxy && !type.inlineImages) return undefined
    const images = await Promise.all(this.urls.map((url) => this.fetchOnce(url)))
    return new Map(this.urls.map((url, i) => [url, images[i]!]))
  }

  private fetchOnce(url: string): Promise<InlineImage> {
    let image = this.fetched.get(url)
    if (!image) {
      image = this.download(url)
      this.fetched.set(url, image)
    }
    return image
  }

  /** The proxy root set, else the public-only network (npm start) or the runtime's fetch (Cloudflare). */
  private network(): Network {
    if (this.proxy) return channelNetwork(this.env, { proxy: this.proxy }) ?? globalThis
    return this.env.PUBLIC_NETWORK ?? globalThis
  }

  private async download(url: string): Promise<InlineImage> {
    this.deadline ??= AbortSignal.timeout(IMAGE_TIMEOUT_MS)
    const signal = this.deadline
    const network = this.network()
    let current = url
    for (let hop = 0; ; hop++) {
      const problem = userUrlProblem(current, { http: true })
      if (problem) throw refused(url, `it ${problem}`)
      let res: Response
      try {
        res = await network.fetch(current, { redirect: 'manual', signal, headers: { accept: 'image/*' } })
      } catch (err) {
        throw refused(url, signal.aborted ? `it took longer than ${IMAGE_TIMEOUT_MS / 1000} s` : `it could not be fetched (${(err as Error).message})`)
      }
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null
      if (location) {
        await res.body?.cancel()
        if (hop >= MAX_REDIRECTS) throw refused(url, 'it redirected too many times')
        current = new URL(location, current).href
        continue
      }
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
      const bad = !res.ok ? `its host answered ${res.status}` : !type.startsWith('image/') ? `it is not an image (content type ${type || 'missing'})` : undefined
      if (bad) {
        await res.body?.cancel()
        throw refused(url, bad)
      }
      const bytes = await this.readCapped(res, url, signal)
      return { mimeType: type, data: toBase64(bytes) }
    }
  }

  /** The body, counted against the request's byte budget as it arrives (a lying content-length cannot pass). */
  private async readCapped(res: Response, url: string, signal: AbortSignal): Promise<Uint8Array> {
    const tooBig = () => refused(url, `the images of one request may total ${IMAGE_MAX_BYTES / 1024 / 1024} MB`)
    if (Number(res.headers.get('content-length')) > this.left) {
      await res.body?.cancel()
      throw tooBig()
    }
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = res.body?.getReader()
    try {
      for (;;) {
        const { done, value } = reader ? await reader.read() : { done: true, value: undefined }
        if (done) break
        size += value.length
        if (size > this.left) {
          await reader!.cancel()
          throw tooBig()
        }
        chunks.push(value)
      }
    } catch (err) {
      if (err instanceof ApiError) throw err
      throw refused(url, signal.aborted ? `it took longer than ${IMAGE_TIMEOUT_MS / 1000} s` : `its download failed (${(err as Error).message})`)
    }
    this.left -= size
    const out = new Uint8Array(size)
    let at = 0
    for (const c of chunks) {
      out.set(c, at)
      at += c.length
    }
    return out
  }
}

const refused = (url: string, why: string) =>
  new ApiError(400, `The image ${url.length > 200 ? `${url.slice(0, 200)}…` : url} cannot be used: ${why}.`, {
    type: 'invalid_request_error',
    code: 'invalid_image_url',
    param: 'messages',
  })

function toBase64(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin)
}

const dataUrl = (img: InlineImage) => `data:${img.mimeType};base64,${img.data}`

/**
 * `body` with every URL in `images` replaced by its bytes, in any of the prompt formats the relay
 * carries: OpenAI chat `image_url` parts, Responses `input_image`, Anthropic `source: {type: 'url'}`
 * and Gemini `fileData` (which becomes `inlineData`). `body` itself is not changed.
 */
export function withInlineImages<T>(body: T, images: Map<string, InlineImage>): T {
  return replace(body, images) as T
}

function replace(value: unknown, images: Map<string, InlineImage>): unknown {
  if (Array.isArray(value)) return value.map((v) => replace(v, images))
  if (!value || typeof value !== 'object') return value
  const o = value as Record<string, any>
  if (o.type === 'image_url' || o.type === 'input_image') {
    const asString = typeof o.image_url === 'string'
    const img = images.get(asString ? o.image_url : o.image_url?.url)
    if (img) return { ...o, image_url: asString ? dataUrl(img) : { ...o.image_url, url: dataUrl(img) } }
    return o
  }
  if (o.source?.type === 'url' && typeof o.source.url === 'string') {
    const img = images.get(o.source.url)
    return img ? { ...o, source: { type: 'base64', media_type: img.mimeType, data: img.data } } : o
  }
  if (o.fileData && typeof o.fileData.fileUri === 'string') {
    const img = images.get(o.fileData.fileUri)
    if (!img) return o
    const { fileData: _, ...rest } = o
    return { ...rest, inlineData: { mimeType: img.mimeType, data: img.data } }
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) out[k] = replace(v, images)
  return out
}
