/**
 * User reads shared by every surface that signs someone in or acts for them (session middleware,
 * the admin API, OAuth, passkeys, Telegram): one user row by id, and the profile shape returned to
 * the console (never the password or token hash). Writes stay with the surfaces that own them.
 */
import { eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { users, type User } from '../db/schema'

/** What the console learns about the signed-in user (never the password or token hash). */
export function profileOf(u: User) {
  return {
    id: u.id,
    username: u.username,
    display_name: u.displayName,
    role: u.role,
    status: u.status,
    email: u.email,
    avatar_url: u.avatarUrl,
    github_id: u.githubId,
    oidc_id: u.oidcId,
    wechat_id: u.wechatId,
    lark_id: u.larkId,
    telegram_id: u.telegramId,
    quota: u.quota,
    used_quota: u.usedQuota,
    request_count: u.requestCount,
    group: u.group,
    aff_code: u.affCode,
    aff_count: u.affCount,
    aff_quota: u.affQuota,
    inviter_id: u.inviterId,
    has_access_token: Boolean(u.accessToken),
    last_login_time: u.lastLoginTime,
    created_time: u.createdTime,
  }
}

export async function getUser(env: Env, id: number): Promise<User | undefined> {
  const [row] = await createDb(env.DB).select().from(users).where(eq(users.id, id)).limit(1)
  return row
}
