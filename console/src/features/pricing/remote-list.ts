/**
 * "Check updates" (as in one-hub's pricing page): a price list at a URL — a JSON array of {model, type,
 * channel_type, input, output, extra_ratios?} or {data: [...]} — fetched through the gateway,
 * checked ('Data format is incorrect' otherwise) and compared with the local prices: new models,
 * changed prices, models only this gateway has. The last URL used is remembered in the browser.
 */
import { z } from 'zod'
import { api } from '@/lib/api-client'
import { readString, writeString } from '@/lib/storage'
import type { RemotePrice } from '@contract/pricing'
import type { ExtraRatios, Price } from './api'

/** Where the last URL the admin fetched is remembered. */
const URL_STORAGE_KEY = 'pricing.updateUrl'

export const lastUpdateUrl = () => readString(URL_STORAGE_KEY)
export const rememberUpdateUrl = (url: string) => writeString(URL_STORAGE_KEY, url)

const remoteItem = z.object({
  model: z.string().trim().min(1).max(200),
  type: z.enum(['tokens', 'times']).default('tokens'),
  channel_type: z.coerce.number().int().min(0).default(0),
  input: z.coerce.number().min(0).max(1e9),
  output: z.coerce.number().min(0).max(1e9),
  extra_ratios: z.record(z.string().max(64), z.number().min(0)).nullish(),
  tier: z.object({ threshold_tokens: z.number().int().min(1), input: z.number().min(0).max(1e9), output: z.number().min(0).max(1e9) }).nullish(),
  fee: z.number().int().min(0).optional(),
})

const remoteList = z.union([z.array(remoteItem), z.object({ data: z.array(remoteItem) }).transform((v) => v.data)])

/** The list in the shape the sync endpoint takes, or null when it is not a price list. */
export function parseRemoteList(json: unknown): RemotePrice[] | null {
  const result = remoteList.safeParse(json)
  if (!result.success) return null
  // A model listed twice counts once, with its last entry (as the server applies it).
  return [...new Map(result.data.map((p) => [p.model, p])).values()]
}

/** The address is not an http(s) URL (checked before asking the server). */
export class InvalidListUrlError extends Error {
  constructor() {
    super('invalid price list URL')
    this.name = 'InvalidListUrlError'
  }
}

/** The address answered, but not with a price list (one-hub's "Data format is incorrect"; the dialog says it in the user's language). */
export class InvalidListFormatError extends Error {
  constructor() {
    super('not a price list')
    this.name = 'InvalidListFormatError'
  }
}

/**
 * The gateway fetches the list (GET /api/prices/remote?url=…): the console's CSP allows only its
 * own origin and list hosts need not send CORS headers. The server answers 502 when the list
 * cannot be fetched and 400 'Data format is incorrect: …' when it is not a price list.
 */
export async function fetchRemoteList(url: string, signal?: AbortSignal): Promise<RemotePrice[]> {
  if (!/^https?:\/\/[^\s/]+/i.test(url)) throw new InvalidListUrlError()
  const list = parseRemoteList(await api.get<unknown>('/api/prices/remote', { url }, signal))
  if (!list) throw new InvalidListFormatError()
  return list
}

/** A canonical string for extra ratios (order-independent; null and {} are the same). */
export const ratiosKey = (r: ExtraRatios | null | undefined) => JSON.stringify(Object.entries(r ?? {}).sort(([a], [b]) => a.localeCompare(b)))

/** Whether two prices charge the same (type, supplier, multipliers, extra ratios; tier and fee when the remote `b` has them). */
export function samePrice(a: Omit<RemotePrice, 'model'>, b: Omit<RemotePrice, 'model'>): boolean {
  if (b.tier !== undefined && JSON.stringify(a.tier ?? null) !== JSON.stringify(b.tier)) return false
  if (b.fee !== undefined && (a.fee ?? 0) !== b.fee) return false
  return a.type === b.type && a.channel_type === b.channel_type && a.input === b.input && a.output === b.output && ratiosKey(a.extra_ratios) === ratiosKey(b.extra_ratios)
}

export interface PriceChange {
  local: Price
  remote: RemotePrice
}

export interface PriceDiff {
  added: RemotePrice[]
  changed: PriceChange[]
  localOnly: Price[]
  unchanged: number
}

export function diffPrices(local: Price[], remote: RemotePrice[]): PriceDiff {
  const mine = new Map(local.map((p) => [p.model, p]))
  const theirs = new Set(remote.map((p) => p.model))
  const diff: PriceDiff = { added: [], changed: [], localOnly: [], unchanged: 0 }
  for (const p of remote) {
    const cur = mine.get(p.model)
    if (!cur) diff.added.push(p)
    else if (samePrice(cur, p)) diff.unchanged++
    else diff.changed.push({ local: cur, remote: p })
  }
  diff.localOnly = local.filter((p) => !theirs.has(p.model))
  return diff
}
