/** Wire shapes of the API-key endpoints (GET /api/token/, /api/token/admin/search and the writes that echo a key). */
import type { UserLimits } from './users'

/** One-hub's `setting` JSON of a key: model and IP allow-lists. */
export interface TokenSetting {
  limits?: {
    limit_model_setting?: { enabled: boolean; models: string[] }
    limits_ip_setting?: { enabled: boolean; whitelist: string[] }
  }
}

/** One pattern of a key's `mcp_tools` allowlist: gateway tool-name characters and `*` (at most 100 patterns). */
export const MCP_TOOL_PATTERN = /^[A-Za-z0-9_*.\-/]{1,100}$/
export const MCP_TOOLS_MAX = 100

/** A key's budget use in the current period, from its owner's wallet. */
export interface BudgetUse {
  period: string
  quota: number
  used: number
  /** Unix ms of the current period's start and end. */
  start: number
  end: number
}

/** An API key as its owner (full `sk-…`) or an admin (masked) sees it; `status`: 1 enabled, 2 disabled. */
export interface Token extends UserLimits {
  id: number
  user_id: number
  /** `sk-…` (masked `sk-abcd**********wxyz` in the all-users search). */
  key: string
  name: string
  status: number
  created_time: number
  accessed_time: number
  /** Unix seconds, or -1 for never. */
  expired_time: number
  remain_quota: number
  unlimited_quota: boolean
  used_quota: number
  group: string
  chat_cache: boolean
  setting: TokenSetting
  /** MCP tool allowlist: patterns like `calc__*` over `<server>__<tool>` names; empty = every tool of the key's group. */
  mcp_tools: string[]
  /** The owner (admin search and lists). */
  username?: string
  /** The budget's use in the current period (lists; null: no budget, or not used since it was set). */
  budget_use?: BudgetUse | null
}

/** Body of POST /api/token/ and PUT /api/token/ (with `id`): the key's settings and its own limits. */
export interface TokenBody extends UserLimits {
  name: string
  remain_quota: number
  unlimited_quota: boolean
  /** -1: never expires; else a Unix time. */
  expired_time: number
  group: string
  chat_cache: boolean
  setting: Required<Pick<TokenSetting, 'limits'>>
  mcp_tools: string[]
}
