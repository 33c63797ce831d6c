/**
 * What the relay needs of the enabled user groups: each group's `api_rate` (requests per minute
 * per user; 0 = unlimited), `tpm` (tokens per minute per user) and whether it is public (token groups are re-checked against it at
 * admission, admit.ts), from an isolate snapshot of the user_groups table (cache/versioned.ts).
 * The count is kept approximately by the isolate's credit lease and exactly by the user's wallet
 * Durable Object (billing/wallet-lease.ts).
 */
import { Snapshot } from '../cache/versioned'
import { ROLE } from '../../shared/contract/enums'

export type GroupLimits = Record<string, { apiRate: number; tpm: number; public: boolean }>

/** A group's per-user limits: requests and tokens per minute (0 = none). */
export interface GroupRates {
  rpm: number
  tpm: number
}

async function loadGroupLimits(env: Env): Promise<GroupLimits> {
  const { results } = await env.DB.prepare('SELECT symbol, api_rate, tpm, public FROM user_groups WHERE enable = 1').all<{
    symbol: string
    api_rate: number
    tpm: number
    public: number
  }>()
  return Object.fromEntries(results.map((g) => [g.symbol, { apiRate: g.api_rate, tpm: g.tpm ?? 0, public: Boolean(g.public) }]))
}

/** Named `group-limits` since it carries `public` and `tpm` (older `groups`/`group-access` copies in KV lack them). */
export const groupLimitsSnapshot = new Snapshot('group-limits', loadGroupLimits)

const enabledGroup = (limits: GroupLimits, group: string) => (Object.hasOwn(limits, group) ? limits[group] : undefined)

/** The group's per-user limits (a disabled or unknown group has none). */
export function ratesOf(limits: GroupLimits, group: string): GroupRates {
  const entry = enabledGroup(limits, group)
  return { rpm: entry?.apiRate ?? 0, tpm: entry?.tpm ?? 0 }
}

/**
 * A token's own group counts only while its owner may use it: the owner's current group, a public
 * enabled group, or (for a current administrator) any enabled group. Otherwise — the owner was moved
 * or demoted, or the group was made private or disabled — the key falls back to the owner's group.
 */
export function effectiveGroup(limits: GroupLimits, token: { tokenGroup: string; userGroup: string; userRole: number }): string {
  if (!token.tokenGroup || token.tokenGroup === token.userGroup) return token.userGroup
  const entry = enabledGroup(limits, token.tokenGroup)
  return entry && (entry.public || token.userRole >= ROLE.ADMIN) ? token.tokenGroup : token.userGroup
}
