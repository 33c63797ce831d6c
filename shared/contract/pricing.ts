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
