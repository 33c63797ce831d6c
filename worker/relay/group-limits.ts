/**
 * Per-group request limits the relay enforces: each user group's `api_rate` (requests per minute
 * per user; 0 = unlimited), from an isolate snapshot of the user_groups table (cache/versioned.ts).
 * The count itself is kept by the user's wallet Durable Object, which the relay calls anyway.
 */
import { Snapshot, type BackgroundCtx } from '../cache/versioned'

export type GroupLimits = Record<string, { apiRate: number }>

async function loadGroupLimits(env: Env): Promise<GroupLimits> {
  const { results } = await env.DB.prepare('SELECT symbol, api_rate FROM user_groups WHERE enable = 1').all<{ symbol: string; api_rate: number }>()
  return Object.fromEntries(results.map((g) => [g.symbol, { apiRate: g.api_rate }]))
}

export const groupLimitsSnapshot = new Snapshot('groups', loadGroupLimits)

export async function requestsPerMinute(env: Env, group: string, ctx?: BackgroundCtx): Promise<number> {
  return (await groupLimitsSnapshot.get(env, ctx))[group]?.apiRate ?? 0
}
