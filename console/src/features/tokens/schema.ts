/**
 * Token form (name required): quota in dollars when the site shows currency (else whole
 * units) unless unlimited; expiry as a local date-time unless "never"; group ('' = the user's own);
 * optional model whitelist (at least one model) and IP/CIDR whitelist (one entry per line, each a
 * valid IPv4/IPv6 address or CIDR range); the cache flag; the MCP tool allowlist (patterns like
 * `calc__*`, empty = every tool of the key's group); limits and budget (lib/limits-form.ts).
 * Messages are i18n keys.
 */
import { z } from 'zod'
import { inputToQuota, quotaPerUnit, quotaToInput } from '@/lib/format'
import { checkLimits, limitsBody, limitsDefaults, limitsFormShape } from '@/lib/limits-form'
import { MCP_TOOL_PATTERN, MCP_TOOLS_MAX } from '@contract/tokens'
import type { Token, TokenBody } from '@contract/tokens'

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

function isIpv6(ip: string): boolean {
  if (!ip.includes(':') || /[^0-9a-f:.]/i.test(ip)) return false
  try {
    new URL(`http://[${ip}]/`)
    return true
  } catch {
    return false
  }
}

/** An IPv4/IPv6 address, optionally with a /prefix (≤ 32 or ≤ 128). */
export function isIpOrCidr(entry: string): boolean {
  const [ip = '', prefix, extra] = entry.trim().split('/')
  if (extra !== undefined) return false
  const bits = IPV4.test(ip) ? 32 : isIpv6(ip) ? 128 : 0
  if (!bits) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)
}

export const ipLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))

export function tokenFormSchema(currency: boolean) {
  return z
    .object({
      name: z.string().trim().min(1, 'tokens:validation.nameRequired').max(50, 'tokens:validation.nameMax'),
      unlimited_quota: z.boolean(),
      remain_quota: z.string().trim(),
      never_expires: z.boolean(),
      expires_at: z.string(),
      group: z.string(),
      models_enabled: z.boolean(),
      models: z.array(z.string()),
      ip_enabled: z.boolean(),
      ip_whitelist: z.string(),
      chat_cache: z.boolean(),
      mcp_tools: z
        .array(z.string())
        .max(MCP_TOOLS_MAX, 'tokens:validation.mcpToolsMax')
        .refine((list) => list.every((p) => MCP_TOOL_PATTERN.test(p)), 'tokens:validation.mcpTool'),
      ...limitsFormShape,
    })
    .superRefine((v, ctx) => {
      checkLimits(v, ctx, currency)
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
      if (!v.unlimited_quota) {
        if (!isNumber(v.remain_quota)) issue('remain_quota', 'tokens:validation.quotaNumber')
        else if (Number(v.remain_quota) < 0) issue('remain_quota', 'tokens:validation.quotaMin')
        else if (!currency && !Number.isInteger(Number(v.remain_quota))) issue('remain_quota', 'tokens:validation.quotaInteger')
      }
      if (!v.never_expires && !Number.isFinite(new Date(v.expires_at).getTime())) issue('expires_at', 'tokens:validation.expiry')
      if (v.models_enabled && v.models.length === 0) issue('models', 'tokens:validation.modelsRequired')
      if (v.ip_enabled) {
        const lines = ipLines(v.ip_whitelist)
        if (lines.length === 0) issue('ip_whitelist', 'tokens:validation.ipRequired')
        else if (!lines.every(isIpOrCidr)) issue('ip_whitelist', 'tokens:validation.ip')
      }
    })
}
export type TokenFormValues = z.infer<ReturnType<typeof tokenFormSchema>>

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds → the value of a datetime-local input (local time, minutes). */
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

const THIRTY_DAYS = 30 * 24 * 3600

export function tokenFormDefaults(token?: Token): TokenFormValues {
  const limits = token?.setting?.limits
  return {
    name: token?.name ?? '',
    unlimited_quota: token?.unlimited_quota ?? false,
    // A new key starts with one unit of currency ($1 worth of quota).
    remain_quota: String(quotaToInput(token ? token.remain_quota : quotaPerUnit())),
    never_expires: token ? token.expired_time === -1 : true,
    expires_at: toLocalInput(token && token.expired_time !== -1 ? token.expired_time : Math.floor(Date.now() / 1000) + THIRTY_DAYS),
    group: token?.group ?? '',
    models_enabled: limits?.limit_model_setting?.enabled ?? false,
    models: limits?.limit_model_setting?.models ?? [],
    ip_enabled: limits?.limits_ip_setting?.enabled ?? false,
    ip_whitelist: (limits?.limits_ip_setting?.whitelist ?? []).join('\n'),
    chat_cache: token?.chat_cache ?? false,
    mcp_tools: token?.mcp_tools ?? [],
    ...limitsDefaults(token),
  }
}

export function tokenBody(v: TokenFormValues): TokenBody {
  return {
    name: v.name,
    unlimited_quota: v.unlimited_quota,
    // An unlimited key keeps whatever amount the field holds, so turning the limit back on restores it.
    remain_quota: isNumber(v.remain_quota) ? Math.max(0, inputToQuota(Number(v.remain_quota))) : 0,
    expired_time: v.never_expires ? -1 : Math.floor(new Date(v.expires_at).getTime() / 1000),
    group: v.group,
    chat_cache: v.chat_cache,
    mcp_tools: v.mcp_tools,
    setting: {
      limits: {
        limit_model_setting: { enabled: v.models_enabled, models: v.models_enabled ? v.models : [] },
        limits_ip_setting: { enabled: v.ip_enabled, whitelist: v.ip_enabled ? ipLines(v.ip_whitelist) : [] },
      },
    },
    ...limitsBody(v),
  }
}

/** URL search of the tokens page (validated by the route). */
export interface TokensSearch {
  p?: number
  page_size?: number
  order?: string
  keyword?: string
  /** 'all': the admins' search across every user's keys. */
  scope?: 'all'
  user_id?: number
  token_id?: number
}
