/** Wire shapes of the price endpoints (GET /api/prices/, the model catalogue, the remote-list sync). */

/** tokens: ratios per token (input/output); times: a fixed price per call. */
export type PriceType = 'tokens' | 'times'

/**
 * Extra multipliers by usage kind (cached input, audio, images, ...), relative to the input or
 * output ratio of the tier in use: cache reads `cached_read_tokens` (and OpenAI's `cached_tokens`),
 * 5-minute cache writes `cached_write_tokens`, 1-hour cache writes `cached_write_1h_tokens`.
 */
export type ExtraRatios = Record<string, number>

/** A long-context tier: above `threshold_tokens` prompt tokens, the request is billed at these input/output ratios. */
export interface PriceTier {
  threshold_tokens: number
  input: number
  output: number
}

export interface Price {
  id: number
  model: string
  type: PriceType
  channel_type: number
  input: number
  output: number
  locked: boolean
  extra_ratios: ExtraRatios | null
  tier: PriceTier | null
  /** Fixed fee per request, quota units (0: none). */
  fee: number
}

/** Every model that is priced or served by a channel, and the served ones without a price. */
export interface ModelCatalogue {
  models: string[]
  unpriced: string[]
}

export interface SyncResult {
  added: number
  updated: number
  removed: number
  skipped_locked: number
}

/** GET /api/available_model: one model the caller's group can call, its price after the group ratio (null when unpriced). */
export interface AvailableModel {
  model: string
  owned_by: string
  groups: string[]
  priced: boolean
  type: PriceType | null
  input: number | null
  output: number | null
  /** The long-context tier's ratios after the group ratio (null when none). */
  tier: PriceTier | null
  /** The fee per request after the group ratio, quota units (0 when none or unpriced). */
  fee: number
  /** Cache read/write ratios and other extra kinds of the price (null when none). */
  extra_ratios: ExtraRatios | null
}

export interface AvailableModels {
  /** The caller's group; null for an anonymous caller (the public groups are listed). */
  group: string | null
  group_ratio: number
  models: AvailableModel[]
}

/** Body of POST /api/prices/single and PUT /api/prices/single/:model (without `tier` and `fee`: none). */
export type PriceBody = Omit<Price, 'id' | 'tier' | 'fee'> & { tier?: PriceTier | null; fee?: number }

/** Body of POST /api/prices/multiple: one price for several models; `original_models` no longer in `models` lose theirs. */
export interface MergedPriceBody extends Omit<PriceBody, 'model'> {
  original_models: string[]
  models: string[]
}

/** One entry of a remote price list (GET /api/prices/remote answers them; POST /api/prices/sync takes them). */
export interface RemotePrice {
  model: string
  type: PriceType
  channel_type: number
  input: number
  output: number
  extra_ratios?: ExtraRatios | null
  /** Absent: a synced row keeps its own tier and fee (one-hub's list has neither). */
  tier?: PriceTier | null
  fee?: number
}

/** POST /api/prices/sync?updateMode=: add only new models; update only existing unlocked ones; or add, update and remove unlocked ones missing from the list. */
export type PriceSyncMode = 'add' | 'update' | 'overwrite'
