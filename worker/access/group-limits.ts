/**
 * What the relay needs of the enabled user groups: each group's `api_rate` (requests per minute
 * per user; 0 = unlimited), `tpm` (tokens per minute per user) and whether it is public (token groups are re-checked against it at
 * auth time), from an isolate snapshot of the user_groups table (cache/versioned.ts).
 * The count is kept approximately by the isolate's credit lease and exactly by the user's wallet
 * Durable Object (billing/wallet-lease.ts).
 */
import { Snapshot, type BackgroundCtx } from '../cache/versioned'
import { ROLE } from '../../shared/contract/enums'

export type GroupLimits = Record<string, { apiRate: number; tpm: number; public: boolean }>

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

export async function requestsPerMinute(env: Env, group: string, ctx?: BackgroundCtx): Promise<number> {
  return enabledGroup(await groupLimitsSnapshot.get(env, ctx), group)?.apiRate ?? 0
}

/** The group's per-user limits: requests and tokens per minute (0 = none). */
export async function groupRates(env: Env, group: string, ctx?: BackgroundCtx): Promise<{ rpm: number; tpm: number }> {
  const entry = enabledGroup(await groupLimitsSnapshot.get(env, ctx), group)
  return { rpm: entry?.apiRate ?? 0, tpm: entry?.tpm ?? 0 }
}

/** An enabled group anyone may pick (admins: any enabled group). */
export async function groupOpenTo(env: Env, group: string, role: number, ctx?: BackgroundCtx): Promise<boolean> {
  const entry = enabledGroup(await groupLimitsSnapshot.get(env, ctx), group)
  return Boolean(entry && (entry.public || role >= ROLE.ADMIN))
}
