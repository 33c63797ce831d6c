/**
 * Price validation: model required and unique (wildcard only last), type tokens|times, channel
 * type, multipliers finite and ≥ 0, an optional long-context tier (threshold a positive integer of
 * tokens) and a fee per request (a non-negative integer of quota units).
 */
import { z } from 'zod'
import { modelName } from '../channels/channels.schema'
import { accepting } from '../../lib/validate'
import { round9 } from '../../billing/formula'
import type { MergedPriceBody, PriceBody, RemotePrice } from '../../../shared/contract/pricing'

const extraRatios = z.record(z.string().max(64), z.number().min(0).max(1e9)).nullish()
const ratio = z.coerce.number().min(0, 'must be at least 0').max(1e9)

/** The long-context tier: its threshold (prompt tokens) and the ratios above it. */
const tier = z
  .object({
    threshold_tokens: z.coerce.number().int('must be a whole number of tokens').min(1, 'must be at least 1').max(100_000_000),
    input: ratio,
    output: ratio,
  })
  .nullish()

/** Fee per request in quota units (at most $2,000 at 500,000 units a dollar). */
const fee = z.coerce.number().int('must be a whole number of quota units').min(0, 'must be at least 0').max(1_000_000_000).default(0)

export const priceFields = accepting<PriceBody>()(
  z.object({
    model: z.string().trim().min(1, 'Model name is required').max(200).pipe(modelName),
    type: z.enum(['tokens', 'times'], { error: 'type must be tokens or times' }),
    channel_type: z.coerce.number().int().min(0, 'Channel type is required'),
    input: ratio,
    output: ratio,
    locked: z.boolean().default(false),
    extra_ratios: extraRatios,
    tier,
    fee,
  })
)

export type PriceFields = z.infer<typeof priceFields>

export const multipleSchema = accepting<MergedPriceBody>()(
  z.object({
    original_models: z.array(z.string().trim().min(1)).max(1000).default([]),
    models: z.array(z.string().trim().min(1).max(200).pipe(modelName)).min(1, 'choose at least one model').max(1000),
    type: z.enum(['tokens', 'times']),
    channel_type: z.coerce.number().int().min(0),
    input: ratio,
    output: ratio,
    locked: z.boolean().default(false),
    extra_ratios: extraRatios,
    tier,
    fee,
  })
)

export const deleteManySchema = z.object({ models: z.array(z.string().trim().min(1)).min(1).max(1000) })

export const syncModeQuery = z.object({ updateMode: z.enum(['add', 'update', 'overwrite']).default('add') })

/**
 * An item of new-api's public `/api/pricing` list in this gateway's shape: `quota_type` 0 is a
 * ratio price (output = model_ratio × completion_ratio), 1 a price per call in dollars (ratio =
 * dollars ÷ 0.002); `cache_ratio` and `create_cache_ratio` are the cache read and cache write
 * multipliers. Anything else (one-hub's own items) passes unchanged.
 */
function fromNewApi(item: unknown): unknown {
  if (!item || typeof item !== 'object' || 'model' in item || !('model_name' in item)) return item
  const p = item as Record<string, unknown>
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
  const ratio = num(p.model_ratio) ?? 0
  const extra: Record<string, number> = {}
  const cacheRead = num(p.cache_ratio)
  if (cacheRead !== undefined) Object.assign(extra, { cached_tokens: cacheRead, cached_read_tokens: cacheRead })
  const cacheWrite = num(p.create_cache_ratio)
  if (cacheWrite !== undefined) extra.cached_write_tokens = cacheWrite
  const perCall = p.quota_type === 1
  return {
    model: p.model_name,
    type: perCall ? 'times' : 'tokens',
    channel_type: 0,
    input: perCall ? round9((num(p.model_price) ?? 0) / 0.002) : ratio,
    output: perCall ? 0 : round9(ratio * (num(p.completion_ratio) ?? 1)),
    extra_ratios: Object.keys(extra).length > 0 ? extra : null,
  }
}

/** A remote price list (one-hub's items, or new-api's `/api/pricing`): an array or {data: [...]}; unknown fields are ignored. */
export const remotePriceList = accepting<RemotePrice[]>()(
  z
    .union([z.array(z.unknown()), z.object({ data: z.array(z.unknown()) }).transform((v) => v.data)])
    .transform((items) => items.map(fromNewApi))
    .pipe(
      z.array(
        z.object({
          model: z.string().trim().min(1).max(200),
          type: z.enum(['tokens', 'times']).default('tokens'),
          channel_type: z.coerce.number().int().min(0).default(0),
          input: ratio,
          output: ratio,
          extra_ratios: extraRatios,
          // Kept on the item only when the list has them (a one-hub list has neither).
          tier: tier.optional(),
          fee: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
        })
      )
    )
)
