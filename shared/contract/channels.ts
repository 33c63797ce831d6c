/** Wire shapes of the channel administration endpoints (/api/channel/*): a channel, the type catalogue, a pool's keys and the status history. */

/** 'batch': one channel per key line; 'pool': one channel rotating over several keys (one per line). */
export type ChannelKeyMode = 'batch' | 'pool'

/** A channel as admins list it; `status` uses CHANNEL_STATUS. */
export interface Channel {
  id: number
  type: number
  name: string
  /** Only in GET /api/channel/:id, and only for root. */
  key?: string
  /** GET /api/channel/:id: the key with its middle hidden (what admins below root see). */
  key_masked?: string
  status: number
  status_reason: string
  weight: number
  priority: number
  /** Comma-separated user groups. */
  group: string
  /** Comma-separated model names. */
  models: string
  tag: string
  base_url: string
  other: string
  /** Remaining supplier balance in USD. */
  balance: number
  balance_updated_time: number
  test_time: number
  /** Milliseconds of the last speed test. */
  response_time: number
  test_model: string
  used_quota: number
  model_mapping: string
  model_headers: string
  custom_parameter: string
  proxy: string
  only_chat: boolean
  auto_ban: boolean
  created_time: number
  key_mode: ChannelKeyMode
  key_count: number
  /** Auto-disable overrides (0 = the global settings). */
  auto_disable_threshold: number
  auto_disable_window: number
  /** Plugin parameters as JSON text ('' = none); see channel-plugins.ts. */
  plugin: string
}

/** One supplier type of GET /api/channel/types. */
export interface ChannelType {
  id: number
  name: string
  default_base_url: string
  key_hint: string
  base_url_hint: string
  other_hint: string
  /** The supplier exposes an account balance. */
  balance: boolean
  models: string[]
}

/** One key of a channel (GET /api/channel/:id/keys), never in clear. */
export interface ChannelKey {
  index: number
  /** Identity of the key (never the key itself). */
  hash: string
  masked: string
  /** 1 enabled, 3 auto-disabled. */
  status: number
  reason: string
  changed_at: number
  /** Unix seconds of the next cron retest (0: none scheduled). */
  retest_at: number
  retests: number
}

export interface ChannelKeysView {
  key_mode: ChannelKeyMode
  /** Unix seconds of the channel's own next retest (0: none scheduled). */
  channel_retest_at: number
  keys: ChannelKey[]
}

/** One row of a channel's status history (GET /api/channel/:id/history). */
export interface StatusChange {
  id: number
  /** '' = the channel itself. */
  key_hash: string
  created_at: number
  status: number
  reason: string
  request_id: string
}

/** A single channel test that reached the supplier (GET /api/channel/test/:id): seconds it took. */
export interface ChannelTestResult {
  time: number
}

/** A channel's refreshed supplier balance (GET /api/channel/update_balance/:id). */
export interface ChannelBalance {
  balance: number
}

/** Refreshing every channel's balance (GET /api/channel/update_balance): how many were updated and failed. */
export interface BalanceRefreshSummary {
  updated: number
  failed: number
}

/** A tag-wide operation (PUT/DELETE /api/channel_tag/:tag…): the tag and the ids of the channels it changed. */
export interface ChannelTagResult {
  tag: string
  channel_ids: number[]
}

/** Body of POST /api/channel/ (create; answers the created rows) and PUT /api/channel/ (with `id`). */
export interface ChannelBody {
  type: number
  name: string
  /** One key per line in batch mode; on update, '' keeps the stored key. */
  key: string
  base_url: string
  other: string
  models: string[]
  group: string[]
  tag: string
  model_mapping: string
  model_headers: string
  custom_parameter: string
  priority: number
  weight: number
  test_model: string
  proxy: string
  only_chat: boolean
  auto_ban: boolean
  key_mode: ChannelKeyMode
  auto_disable_threshold: number
  auto_disable_window: number
  /** Plugin parameters as JSON text ('' = none). */
  plugin: string
}

/** Body of PATCH /api/channel/: one inline edit from the list (priority, weight, enable/disable). */
export type ChannelPatch = { id: number } & ({ priority: number } | { weight: number } | { status: 1 | 2 })

/** Body of PUT /api/channel/batch/del_model and /azure_api: the channels and the value applied to each. */
export interface ChannelBatchValue {
  ids: number[]
  value: string
}

/** Body of POST /api/channel/provider_models_list: an unsaved form's supplier settings (`id` names a saved channel whose key is used when `key` is ''). */
export interface ProviderModelsBody {
  type: number
  key: string
  id?: number
  base_url: string
  other: string
}

/** Body of PUT /api/channel_tag/:tag/priority: set the priority or weight of every channel of the tag. */
export interface TagPriorityBody {
  type: 'priority' | 'weight'
  value: number
}

/** A breaker's state (worker/channels/breaker.ts): closed, open until its cool-down ends, or half-open for one probe. */
export type BreakerState = 'closed' | 'open' | 'half-open'

/** One breaker of a channel: a model it serves, or one key of its pool. */
export interface ChannelBreaker {
  kind: 'model' | 'key'
  /** The model name, or the key's masked form. */
  name: string
  /** The key's identity (kind `key`), '' for a model. */
  key_hash: string
  state: BreakerState
  /** Unix milliseconds its cool-down ends (open) or ended (half-open); 0 when closed. */
  until: number
  /** Consecutive openings without a success between (each failed probe doubles the cool-down). */
  opens: number
}

/** GET /api/channel/:id/breakers: every model and pool key of the channel with its breaker. */
export interface ChannelBreakersView {
  breakers: ChannelBreaker[]
  /** The cap of a doubled cool-down, seconds. */
  max_cooldown_seconds: number
}
