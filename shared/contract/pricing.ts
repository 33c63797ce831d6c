/** Wire shapes of the price endpoints (GET /api/prices/, the model catalogue, the remote-list sync). */

/** tokens: ratios per token (input/output); times: a fixed price per call. */
export type PriceType = 'tokens' | 'times'

/** Extra multipliers by usage kind (cached input, audio, images, ...). */
export type ExtraRatios = Record<string, number>

export interface Price {
  id: number
  model: string
  type: PriceType
  channel_type: number
  input: number
  output: number
  locked: boolean
  extra_ratios: ExtraRatios | null
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
}

export interface AvailableModels {
  /** The caller's group; null for an anonymous caller (the public groups are listed). */
  group: string | null
  group_ratio: number
  models: AvailableModel[]
}

/** Body of POST /api/prices/single and PUT /api/prices/single/:model. */
export type PriceBody = Omit<Price, 'id'>

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
}

/** POST /api/prices/sync?updateMode=: add only new models; update only existing unlocked ones; or add, update and remove unlocked ones missing from the list. */
export type PriceSyncMode = 'add' | 'update' | 'overwrite'
