/**
 * User groups (symbol, name, ratio, RPM, public, enable). The GroupRatio setting — read by the
 * relay — is kept equal to {symbol: ratio} of the enabled groups: group writes rewrite it, and
 * saving GroupRatio directly upserts the listed groups and disables the others.
 */
import { asc, eq } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { userGroups, type UserGroup } from '../../db/schema'
import { badRequest } from '../../lib/errors'
import { saveOptions } from '../../settings/store'
import { groupLimitsSnapshot } from '../../access/group-limits'
import type { UserGroup as UserGroupView } from '../../../shared/contract/groups'

export const groupView = (g: UserGroup) =>
  ({
    id: g.id,
    symbol: g.symbol,
    name: g.name,
    ratio: g.ratio,
    api_rate: g.apiRate,
    tpm: g.tpm,
    public: g.public,
    enable: g.enable,
  }) satisfies UserGroupView

export async function listGroups(env: Env): Promise<UserGroup[]> {
  return createDb(env.DB).select().from(userGroups).orderBy(asc(userGroups.id))
}

/** Rewrite GroupRatio from the table. */
export async function syncRatioSetting(env: Env) {
  const groups = await listGroups(env)
  const ratios = Object.fromEntries(groups.filter((g) => g.enable).map((g) => [g.symbol, g.ratio]))
  await saveOptions(env, { GroupRatio: JSON.stringify(ratios) })
  await groupLimitsSnapshot.invalidate(env)
}

/** Called by the options API when GroupRatio is saved directly: the table follows the JSON. */
export async function syncGroupsFromRatio(env: Env, json: string) {
  const ratios = JSON.parse(json) as Record<string, number>
  const db = createDb(env.DB)
  const existing = await listGroups(env)
  const ops = [
    ...Object.entries(ratios).map(([symbol, ratio]) =>
      db
        .insert(userGroups)
        .values({ symbol, name: symbol, ratio, enable: true })
        .onConflictDoUpdate({ target: userGroups.symbol, set: { ratio, enable: true } })
    ),
    ...existing.filter((g) => !(g.symbol in ratios) && g.enable).map((g) => db.update(userGroups).set({ enable: false }).where(eq(userGroups.id, g.id))),
  ]
  const [first, ...rest] = ops
  if (first) await db.batch([first, ...rest])
  await groupLimitsSnapshot.invalidate(env)
}

export async function groupExists(env: Env, symbol: string, opts: { publicOnly?: boolean } = {}): Promise<boolean> {
  const [row] = await createDb(env.DB).select().from(userGroups).where(eq(userGroups.symbol, symbol)).limit(1)
  return Boolean(row && row.enable && (!opts.publicOnly || row.public))
}

export async function assertGroup(env: Env, symbol: string) {
  if (!(await groupExists(env, symbol))) throw badRequest(`group: "${symbol}" is not an enabled group`, { fields: { group: 'unknown group' } })
}
