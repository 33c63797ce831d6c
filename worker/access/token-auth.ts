/**
 * An API key's record: its token and owner from an isolate cache → KV → D1 (D1 only on a cold miss),
 * forgotten by the token and user APIs after a change, and the key's model whitelist. admit.ts is
 * the one caller that turns a request's key into a record and refuses what it must; the owner's
 * wallet Durable Object re-checks status, expiry and quota atomically when it reserves, so a
 * disabled token is refused at once even if a cache is stale.
 */
import { ApiError } from '../lib/errors'
import { cacheKeys } from '../cache/keys'
import { onIsolateReset } from '../cache/isolate'
import { parseMcpTools } from './mcp-allowlist'
import { effectiveLimits, type OwnLimits, type TokenLimits } from './token-limits'
import type { BudgetPeriod } from '../lib/budget-period'
import type { ModelLimits } from '../db/schema/limits'
import type { GroupRates } from './group-limits'

export interface TokenRecord {
  id: number
  userId: number
  name: string
  status: number
  expiredTime: number
  unlimited: boolean
  /** The group stored on the token ('' = the owner's group). */
  tokenGroup: string
  /** The owner's current group. */
  userGroup: string
  chatCache: boolean
  models: string[] | null
  ips: string[] | null
  username: string
  userRole: number
  userStatus: number
  /** Imported from one-api/one-hub: accepted without this gateway's signature (imported-keys.ts). */
  imported?: boolean
  /** The token's limits and budget, narrowed by its owner's ceilings (token-limits.ts, effectiveLimits). */
  limits: TokenLimits
  /** MCP tool allowlist patterns (mcp-allowlist.ts); empty = every tool of the key's group. */
  mcpTools: string[]
}

/** An admitted key (admit.ts): its record, its effective group and that group's limits, read from one snapshot. */
export interface RelayAuth extends TokenRecord {
  /** Effective group: the token's group when its owner may still use it, else the owner's group. */
  group: string
  /** The effective group's requests and tokens per minute per user (0 = none; group-limits.ts). */
  groupRates: GroupRates
  pinChannel?: number
  excludeChannel?: number
}

const ISOLATE_TTL_MS = 30_000
const KV_TTL_SECONDS = 3600
const cache = new Map<string, { record: TokenRecord | null; at: number }>()
onIsolateReset(() => cache.clear())

async function loadFromD1(env: Env, key: string): Promise<TokenRecord | null> {
  const row = await env.DB.prepare(
    `SELECT t.id, t.user_id, t.name, t.status, t.expired_time, t.unlimited_quota, t."group" AS token_group, t.chat_cache, t.setting, t.imported, t.mcp_tools,
            t.rpm_limit, t.tpm_limit, t.concurrency_limit, t.budget_period, t.budget_quota, t.model_limits,
            u.rpm_limit AS u_rpm_limit, u.tpm_limit AS u_tpm_limit, u.concurrency_limit AS u_concurrency_limit,
            u.budget_period AS u_budget_period, u.budget_quota AS u_budget_quota, u.model_limits AS u_model_limits,
            u.username, u.role, u.status AS user_status, u."group" AS user_group
     FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.key = ?`
  )
    .bind(key)
    .first<Record<string, any>>()
  if (!row) return null
  let setting: any = {}
  try {
    setting = JSON.parse(row.setting || '{}')
  } catch {
    setting = {}
  }
  const modelLimit = setting?.limits?.limit_model_setting
  const ipLimit = setting?.limits?.limits_ip_setting
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    status: row.status,
    expiredTime: row.expired_time,
    unlimited: Boolean(row.unlimited_quota),
    tokenGroup: row.token_group ?? '',
    userGroup: row.user_group,
    chatCache: Boolean(row.chat_cache),
    models: modelLimit?.enabled ? (modelLimit.models ?? []) : null,
    ips: ipLimit?.enabled ? (ipLimit.whitelist ?? []) : null,
    username: row.username,
    userRole: row.role,
    userStatus: row.user_status,
    imported: Boolean(row.imported),
    limits: limitsOf(row),
    mcpTools: parseMcpTools(row.mcp_tools),
  }
}

function parseModelLimits(json: unknown): ModelLimits {
  try {
    const parsed = typeof json === 'string' ? JSON.parse(json || '{}') : json
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ModelLimits) : {}
  } catch {
    return {}
  }
}

/** The row's token limits narrowed by its owner's (token-limits.ts, effectiveLimits). */
function limitsOf(row: Record<string, any>): TokenLimits {
  const side = (p: '' | 'u_'): OwnLimits => ({
    rpm: Number(row[`${p}rpm_limit`]) || 0,
    tpm: Number(row[`${p}tpm_limit`]) || 0,
    concurrency: Number(row[`${p}concurrency_limit`]) || 0,
    budgetPeriod: (row[`${p}budget_period`] || '') as BudgetPeriod,
    budgetQuota: Number(row[`${p}budget_quota`]) || 0,
    models: parseModelLimits(row[`${p}model_limits`]),
  })
  return effectiveLimits(side(''), side('u_'))
}

export async function findToken(env: Env, key: string): Promise<TokenRecord | null> {
  const hit = cache.get(key)
  if (hit && Date.now() - hit.at < ISOLATE_TTL_MS) return hit.record
  let record = await env.CACHE.get<TokenRecord>(cacheKeys.token(key), 'json')
  // A record cached before tokenGroup/userGroup, the limits, the owner's ceilings or the MCP allowlist existed cannot be re-checked: read D1 again.
  if (!record || record.tokenGroup === undefined || record.limits?.ownerModels === undefined || record.mcpTools === undefined) {
    record = await loadFromD1(env, key)
    if (record) await env.CACHE.put(cacheKeys.token(key), JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS })
  }
  cache.set(key, { record, at: Date.now() })
  return record
}

/** Called by the token and user APIs after a change, so this isolate and KV forget the record. */
export async function forgetToken(env: Env, key: string): Promise<void> {
  cache.delete(key)
  await env.CACHE.delete(cacheKeys.token(key))
}

export function assertModelAllowed(auth: RelayAuth, model: string) {
  if (auth.models && !auth.models.includes(model)) {
    throw new ApiError(403, `This API key may not use the model ${model}.`, { code: 'model_not_allowed', param: 'model' })
  }
}
