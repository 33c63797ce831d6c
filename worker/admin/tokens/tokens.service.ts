/**
 * API keys for their owners (and admins): list, read, create with a signed key, update, enable/
 * disable, delete, and the hidden playground key. After every change the relay caches forget the
 * key and the owner's wallet Durable Object re-reads the token (it owns the remaining quota).
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { tokens, users, type Token } from '../../db/schema'
import { badRequest } from '../../lib/errors'
import { nowSeconds } from '../../lib/time'
import { forgetToken } from '../../access/token-auth'
import { generateTokenKey } from '../../access/token-key'
import { getTokenSecret } from '../../settings/store'
import { groupExists } from '../groups/groups.service'
import type { SessionUser } from '../../env'
import { contains, offset, orderBy, page, type ListQuery } from '../../lib/paging'
import type { z } from 'zod'
import type { tokenFields } from './tokens.schema'
import { limitColumnValues, limitView } from '../shared/limit-fields'
import { budgetUses } from './token-budgets'
import { findOwnedToken, maskedKey } from '../../access/key-reveal'
import type { Token as TokenView } from '../../../shared/contract/tokens'
import { parseMcpTools } from '../../access/mcp-allowlist'
import { walletOf } from '../../wallet/wallet-client'
import { ROLE, TOKEN_STATUS, type TokenStatus } from '../../../shared/contract/enums'

export type TokenFields = z.infer<typeof tokenFields>

export const PLAYGROUND_TOKEN_NAME = 'sys_playground'

export function tokenView(t: Token, username?: string, opts: { masked?: boolean } = {}) {
  return {
    id: t.id,
    user_id: t.userId,
    key: opts.masked ? maskedKey(t.key) : `sk-${t.key}`,
    name: t.name,
    status: t.status,
    created_time: t.createdTime,
    accessed_time: t.accessedTime,
    expired_time: t.expiredTime,
    remain_quota: t.remainQuota,
    unlimited_quota: t.unlimitedQuota,
    used_quota: t.usedQuota,
    group: t.group,
    chat_cache: t.chatCache,
    setting: t.setting,
    mcp_tools: parseMcpTools(t.mcpTools),
    ...limitView(t),
    ...(username !== undefined ? { username } : {}),
  } satisfies TokenView
}

const sortable = {
  id: tokens.id,
  name: tokens.name,
  created_time: tokens.createdTime,
  accessed_time: tokens.accessedTime,
  remain_quota: tokens.remainQuota,
  used_quota: tokens.usedQuota,
  expired_time: tokens.expiredTime,
}

export async function listTokens(env: Env, where: SQL | undefined, q: ListQuery, opts: { masked?: boolean } = {}) {
  const db = createDb(env.DB)
  const filter = and(where, eq(tokens.hidden, false), q.keyword ? contains(tokens.name, q.keyword) : undefined)
  const [rows, [total]] = await Promise.all([
    db
      .select({ t: tokens, username: users.username, ownerBudgetPeriod: users.budgetPeriod, ownerBudgetQuota: users.budgetQuota })
      .from(tokens)
      .leftJoin(users, eq(users.id, tokens.userId))
      .where(filter)
      .orderBy(orderBy(q.order, sortable, desc(tokens.id)))
      .limit(q.page_size)
      .offset(offset(q)),
    db.select({ n: count() }).from(tokens).where(filter),
  ])
  // Budget use (from the wallets) for tokens with a budget of their own or from their owner.
  const budgeted = rows.filter((r) => (r.t.budgetPeriod && r.t.budgetQuota > 0) || (r.ownerBudgetPeriod && (r.ownerBudgetQuota ?? 0) > 0))
  const uses =
    budgeted.length > 0
      ? await budgetUses(
          env,
          budgeted.map((r) => r.t)
        )
      : new Map()
  return page(
    q,
    rows.map((r) => ({ ...tokenView(r.t, r.username ?? '', opts), budget_use: uses.get(r.t.id) ?? null })),
    total?.n ?? 0
  )
}

/** A token group must be enabled; ordinary users may pick only their own group or a public one. */
async function checkGroup(env: Env, owner: SessionUser, group: string) {
  if (!group || group === owner.group) return
  const allowed = await groupExists(env, group, { publicOnly: owner.role < ROLE.ADMIN })
  if (!allowed) throw badRequest(`group: "${group}" is not available to you`, { fields: { group: 'not allowed' } })
}

function columns(f: TokenFields) {
  return {
    name: f.name,
    remainQuota: f.remain_quota,
    unlimitedQuota: f.unlimited_quota,
    expiredTime: f.expired_time,
    group: f.group,
    chatCache: f.chat_cache,
    setting: f.setting,
    ...(f.mcp_tools ? { mcpTools: f.mcp_tools.length > 0 ? JSON.stringify(f.mcp_tools) : '' } : {}),
    ...limitColumnValues(f),
  }
}

export async function createToken(env: Env, owner: SessionUser, f: TokenFields, extra: { hidden?: boolean } = {}) {
  await checkGroup(env, owner, f.group)
  const key = await generateTokenKey(await getTokenSecret(env))
  const [row] = await createDb(env.DB)
    .insert(tokens)
    .values({ ...columns(f), userId: owner.id, key, status: TOKEN_STATUS.ENABLED, createdTime: nowSeconds(), hidden: extra.hidden ?? false })
    .returning()
  return row!
}

async function afterChange(env: Env, token: Token, remain?: number) {
  await forgetToken(env, token.key)
  await walletOf(env, token.userId).syncToken({ userId: token.userId, tokenId: token.id, remain })
}

export async function updateToken(env: Env, owner: SessionUser, id: number, f: TokenFields, asAdmin = false) {
  const current = await findOwnedToken(env, id, owner, asAdmin)
  await checkGroup(env, asAdmin ? { ...owner, role: ROLE.ADMIN } : owner, f.group)
  const [row] = await createDb(env.DB).update(tokens).set(columns(f)).where(eq(tokens.id, current.id)).returning()
  await afterChange(env, row!, f.unlimited_quota ? undefined : f.remain_quota)
  return row!
}

export async function setTokenStatus(env: Env, owner: SessionUser, id: number, status: TokenStatus) {
  const current = await findOwnedToken(env, id, owner)
  if (status === TOKEN_STATUS.ENABLED && current.expiredTime !== -1 && current.expiredTime <= nowSeconds()) {
    throw badRequest('This token has expired: change its expiry before enabling it')
  }
  const [row] = await createDb(env.DB).update(tokens).set({ status }).where(eq(tokens.id, current.id)).returning()
  await afterChange(env, row!)
  return row!
}

export async function deleteToken(env: Env, owner: SessionUser, id: number, asAdmin = false) {
  const current = await findOwnedToken(env, id, owner, asAdmin)
  await createDb(env.DB).delete(tokens).where(eq(tokens.id, current.id))
  await afterChange(env, current)
  return current
}

/** The hidden unlimited key the console playground uses (created on first use). */
export async function playgroundToken(env: Env, owner: SessionUser) {
  const [existing] = await createDb(env.DB)
    .select()
    .from(tokens)
    .where(and(eq(tokens.userId, owner.id), eq(tokens.hidden, true), eq(tokens.name, PLAYGROUND_TOKEN_NAME)))
    .limit(1)
  if (existing) return existing
  return createToken(
    env,
    owner,
    {
      name: PLAYGROUND_TOKEN_NAME,
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
      group: '',
      chat_cache: false,
      setting: {},
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      budget_period: '',
      budget_quota: 0,
      model_limits: {},
    },
    { hidden: true }
  )
}

/** Forget every cached key of a user (their group, role or status changed). */
export async function forgetUserTokens(env: Env, userId: number) {
  const rows = await createDb(env.DB).select({ key: tokens.key }).from(tokens).where(eq(tokens.userId, userId))
  await Promise.all(rows.map((r) => forgetToken(env, r.key)))
}

export const ownedBy = (userId: number) => eq(tokens.userId, userId)
export const tokenIdIs = (id: number) => eq(tokens.id, id)
