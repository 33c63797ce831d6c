/**
 * User administration: list/search, create, edit, enable/disable/delete, promote/demote and quota
 * changes (through the user's wallet, each with a manage log). Rules: only root promotes or
 * demotes; root is never demoted, disabled or deleted; an admin cannot act on peers or root.
 */
import { count, desc, eq, or } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { passkeys, sessions, tokens, users, type User } from '../../db/schema'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors'
import { hashPassword } from '../../lib/crypto'
import { nowSeconds } from '../../lib/time'
import type { AdminUser } from '../../../shared/contract/users'
import type { SessionUser } from '../../env'
import { destroyUserSessions, revokeCredentials } from '../../accounts/session'
import { contains, offset, orderBy, page, type ListQuery } from '../../lib/paging'
import { forgetUserTokens } from '../tokens/tokens.service'
import { limitView, partialLimitColumns, type LimitFieldValues } from '../shared/limit-fields'
import { getUser } from '../../accounts/users'
import { refuseTakenEmail } from '../../accounts/email-taken'
import { usernameTaken } from './users.service'
import { notifyPasswordChanged } from '../../mail/password-notice'
import { walletOf } from '../../wallet/wallet-client'
import { LOG_TYPE, ROLE } from '../../../shared/contract/enums'

export function userRow(u: User) {
  return {
    id: u.id,
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    role: u.role,
    status: u.status,
    group: u.group,
    quota: u.quota,
    used_quota: u.usedQuota,
    request_count: u.requestCount,
    aff_count: u.affCount,
    inviter_id: u.inviterId,
    github_id: u.githubId,
    oidc_id: u.oidcId,
    wechat_id: u.wechatId,
    lark_id: u.larkId,
    telegram_id: u.telegramId,
    created_time: u.createdTime,
    last_login_time: u.lastLoginTime,
    last_login_ip: u.lastLoginIp,
    ...limitView(u),
  } satisfies AdminUser
}

const sortable = {
  id: users.id,
  username: users.username,
  group: users.group,
  role: users.role,
  status: users.status,
  quota: users.quota,
  used_quota: users.usedQuota,
  request_count: users.requestCount,
  created_time: users.createdTime,
  last_login_time: users.lastLoginTime,
}

export async function listUsers(env: Env, q: ListQuery) {
  const db = createDb(env.DB)
  const kw = q.keyword
  const where = kw
    ? or(/^\d+$/.test(kw) ? eq(users.id, Number(kw)) : undefined, contains(users.username, kw), contains(users.displayName, kw), contains(users.email, kw), eq(users.group, kw))
    : undefined
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(orderBy(q.order, sortable, desc(users.id)))
      .limit(q.page_size)
      .offset(offset(q)),
    db.select({ n: count() }).from(users).where(where),
  ])
  return page(q, rows.map(userRow), total?.n ?? 0)
}

export async function targetUser(env: Env, ref: { id?: number; username?: string }): Promise<User> {
  const db = createDb(env.DB)
  const [row] = await db
    .select()
    .from(users)
    .where(ref.id !== undefined ? eq(users.id, ref.id) : eq(users.username, ref.username!))
    .limit(1)
  if (!row) throw notFound('User not found')
  return row
}

/** An admin may act on ordinary users (and themself); root on everyone. */
export function assertCanManage(actor: SessionUser, target: User) {
  if (actor.role >= ROLE.ROOT) return
  if (target.id !== actor.id && target.role >= actor.role) throw forbidden('You cannot manage an administrator of your level or above')
}

const wallet = (env: Env, id: number) => walletOf(env, id)

/** Change a balance through the wallet with a manage log. */
export async function adjustQuota(env: Env, actor: SessionUser, target: User, delta: number, remark: string) {
  const result = await wallet(env, target.id).credit({
    userId: target.id,
    amount: delta,
    key: `manage:${crypto.randomUUID()}`,
    log: {
      type: LOG_TYPE.MANAGE,
      createdAt: nowSeconds(),
      username: target.username,
      content: `${actor.username} ${delta >= 0 ? 'added' : 'subtracted'} ${Math.abs(delta)} quota${remark ? `: ${remark}` : ''}`,
      metadata: { admin_id: actor.id, delta, remark },
    },
  })
  if (!result.ok) throw badRequest('The balance would go below zero')
  return result.userQuota
}

export async function updateUser(
  env: Env,
  actor: SessionUser,
  body: { id: number; username: string; display_name: string; email: string; password?: string; group: string; quota?: number } & Partial<LimitFieldValues>
) {
  const target = await targetUser(env, { id: body.id })
  assertCanManage(actor, target)
  if (await usernameTaken(env, body.username, target.id)) throw conflict('Username already exists')
  const limits = partialLimitColumns(body)
  const patch: Partial<typeof users.$inferInsert> = { username: body.username, displayName: body.display_name, email: body.email, group: body.group, ...limits }
  if (body.password) patch.password = await hashPassword(body.password)
  await refuseTakenEmail(createDb(env.DB).update(users).set(patch).where(eq(users.id, target.id)))
  if (body.password) {
    await revokeCredentials(env, target.id)
    await notifyPasswordChanged(env, { username: body.username, email: body.email }, 'changed')
  }
  if (body.quota !== undefined) {
    const current = (await wallet(env, target.id).balance({ userId: target.id }))?.quota ?? target.quota
    if (body.quota !== current) await adjustQuota(env, actor, target, body.quota - current, 'set by administrator')
  }
  // Cached keys carry the group, the username and the owner's limit ceilings.
  if (body.group !== target.group || body.username !== target.username || Object.keys(limits).length > 0) await forgetUserTokens(env, target.id)
  return (await getUser(env, target.id))!
}

export async function manageUser(env: Env, actor: SessionUser, ref: { id?: number; username?: string }, action: 'disable' | 'enable' | 'delete' | 'promote' | 'demote') {
  const target = await targetUser(env, ref)
  if (target.role >= ROLE.ROOT && action !== 'enable') throw forbidden('The root account cannot be disabled, deleted or demoted')
  if ((action === 'promote' || action === 'demote') && actor.role < ROLE.ROOT) throw forbidden('Only root can promote or demote administrators')
  assertCanManage(actor, target)
  if (target.id === actor.id && action !== 'enable') throw forbidden('You cannot do this to your own account')
  const db = createDb(env.DB)
  switch (action) {
    case 'disable':
    case 'enable':
      await db
        .update(users)
        .set({ status: action === 'enable' ? 1 : 2 })
        .where(eq(users.id, target.id))
      if (action === 'disable') await destroyUserSessions(env, target.id)
      await wallet(env, target.id).syncUser({ userId: target.id })
      break
    case 'promote':
      if (target.role >= ROLE.ADMIN) throw badRequest('This user is already an administrator')
      await db.update(users).set({ role: ROLE.ADMIN }).where(eq(users.id, target.id))
      break
    case 'demote':
      if (target.role < ROLE.ADMIN) throw badRequest('This user is not an administrator')
      await db.update(users).set({ role: ROLE.USER }).where(eq(users.id, target.id))
      break
    case 'delete':
      await deleteUser(env, target)
      return null
  }
  await forgetUserTokens(env, target.id)
  return (await getUser(env, target.id))!
}

export async function deleteUser(env: Env, target: User) {
  await forgetUserTokens(env, target.id)
  const db = createDb(env.DB)
  await db.batch([
    db.delete(tokens).where(eq(tokens.userId, target.id)),
    db.delete(sessions).where(eq(sessions.userId, target.id)),
    db.delete(passkeys).where(eq(passkeys.userId, target.id)),
    db.delete(users).where(eq(users.id, target.id)),
  ])
  await wallet(env, target.id).syncUser({ userId: target.id })
}
