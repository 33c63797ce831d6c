/**
 * Price validation: model required and unique (wildcard only last), type tokens|times, channel
 * type, multipliers finite and ≥ 0, an optional long-context tier (threshold a positive integer of
 * tokens) and a fee per request (a non-negative integer of quota units).
 */
import { z } from 'zod'
import { modelName } from '../channels/channels.schema'
import { accepting } from '../../lib/validate'
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

/** A remote price list: an array or {data: [...]}; unknown fields are ignored. */
export const remotePriceList = accepting<RemotePrice[]>()(
  z
    .union([z.array(z.unknown()), z.object({ data: z.array(z.unknown()) }).transform((v) => v.data)])
    .transform((items) => items)
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
