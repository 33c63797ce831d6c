/**
 * External identities on user accounts: find a user by a bound id (GitHub, OIDC, Lark, WeChat,
 * email), bind atomically (one D1 statement that refuses an id already bound to someone else),
 * unbind while keeping at least one way to sign in, and create the account on a first external
 * login (unique username derived from the provider login; the new-user quota is held like at
 * registration and paid at once when the provider vouches for the email).
 */
import type { User } from '../../db/schema'
import { holdSignupRewards, paySignupRewardsQuietly } from '../../billing/signup-rewards'
import { applyDefaultPlan } from '../../plans/default-plan'
import { conflict, badRequest, notFound } from '../../lib/errors'
import { randomString } from '../../lib/crypto'
import type { Settings } from '../../settings/store'
import { getUser } from '../../accounts/users'
import { refuseTakenEmail } from '../../accounts/email-taken'
import { createUser, usernameTaken } from '../users/users.service'

export const PROVIDERS = ['github', 'oidc', 'lark', 'wechat'] as const
export type Provider = (typeof PROVIDERS)[number]
export const BINDING_TYPES = [...PROVIDERS, 'email'] as const
export type BindingType = (typeof BINDING_TYPES)[number]

export const BINDING_LABEL: Record<BindingType, string> = {
  github: 'GitHub',
  oidc: 'OIDC',
  lark: 'Lark',
  wechat: 'WeChat',
  email: 'email',
}

const COLUMN: Record<BindingType, string> = {
  github: 'github_id',
  oidc: 'oidc_id',
  lark: 'lark_id',
  wechat: 'wechat_id',
  email: 'email',
}

/** What a provider tells us about the person signing in. */
export interface ExternalIdentity {
  id: string
  username?: string
  displayName?: string
  email?: string
}

const matches = (type: BindingType) => (type === 'email' ? 'lower(email) = lower(?1)' : `${COLUMN[type]} = ?1`)

function bindingOf(user: User, type: BindingType): string {
  const values: Record<BindingType, string> = {
    github: user.githubId,
    oidc: user.oidcId,
    lark: user.larkId,
    wechat: user.wechatId,
    email: user.email,
  }
  return values[type]
}

export async function findUserByBinding(env: Env, type: BindingType, value: string, exceptId = 0): Promise<{ id: number } | undefined> {
  if (!value) return undefined
  const row = await env.DB.prepare(`SELECT id FROM users WHERE ${matches(type)} AND id <> ?2 LIMIT 1`)
    .bind(value, exceptId)
    .first<{ id: number }>()
  return row ?? undefined
}

/** Bind `value` to the user; 409 when another account already holds it (checked in the same statement). */
export async function bindToUser(env: Env, userId: number, type: BindingType, value: string): Promise<User> {
  const result = await refuseTakenEmail(
    env.DB.prepare(`UPDATE users SET ${COLUMN[type]} = ?1 WHERE id = ?2 AND NOT EXISTS (SELECT 1 FROM users WHERE ${matches(type)} AND id <> ?2)`)
      .bind(value, userId)
      .run()
  )
  if (result.meta.changes === 0) {
    if (!(await getUser(env, userId))) throw notFound('User not found')
    throw conflict(`This ${BINDING_LABEL[type]} account is already bound to another user`)
  }
  return (await getUser(env, userId))!
}

/** Ways to sign in (or recover the account) that remain once `removing` is gone. */
export function signInMethodsLeft(user: User, removing: BindingType): number {
  const methods = [Boolean(user.password), ...BINDING_TYPES.filter((t) => t !== removing).map((t) => Boolean(bindingOf(user, t)))]
  return methods.filter(Boolean).length
}

export async function unbindFromUser(env: Env, userId: number, type: BindingType): Promise<User> {
  const user = await getUser(env, userId)
  if (!user) throw notFound('User not found')
  if (!bindingOf(user, type)) throw badRequest(`No ${BINDING_LABEL[type]} account is bound`)
  if (signInMethodsLeft(user, type) === 0) {
    throw badRequest(`Cannot unbind ${BINDING_LABEL[type]}: it is the only way to sign in to this account; set a password or bind another method first`)
  }
  await env.DB.prepare(`UPDATE users SET ${COLUMN[type]} = '' WHERE id = ?1`).bind(userId).run()
  return (await getUser(env, userId))!
}

const USERNAME_MAX = 20

function usernameBase(provider: Provider, identity: ExternalIdentity): string {
  const cleaned = (identity.username ?? '').replace(/[\s<>"'&]/g, '').slice(0, USERNAME_MAX)
  if (cleaned.length >= 3) return cleaned
  const suffix = identity.id.replace(/[^A-Za-z0-9]/g, '').slice(-8) || randomString(8)
  return `${provider}_${suffix}`
}

export async function uniqueUsername(env: Env, provider: Provider, identity: ExternalIdentity): Promise<string> {
  const base = usernameBase(provider, identity)
  if (!(await usernameTaken(env, base))) return base
  for (let i = 0; i < 5; i++) {
    const candidate = `${base.slice(0, USERNAME_MAX - 5)}_${randomString(4)}`
    if (!(await usernameTaken(env, candidate))) return candidate
  }
  return `${provider}_${randomString(10)}`
}

/** Create the account for a first external login and bind the identity to it. */
export async function registerExternalUser(env: Env, settings: Settings, provider: Provider, identity: ExternalIdentity): Promise<User> {
  const username = await uniqueUsername(env, provider, identity)
  const email = identity.email && !(await findUserByBinding(env, 'email', identity.email)) ? identity.email : ''
  const user = await createUser(env, {
    username,
    password: '',
    displayName: (identity.displayName ?? '').trim().slice(0, 40) || username,
    email,
  })
  await holdSignupRewards(env, user.id, { newUser: settings.int('QuotaForNewUser'), invitee: 0, inviterId: 0, inviterReward: 0 })
  await applyDefaultPlan(env, settings, user.id)
  const bound = await bindToUser(env, user.id, provider, identity.id)
  // The provider vouches for the address (OIDC only with email_verified): pay the new-user quota now.
  if (!email) return bound
  await paySignupRewardsQuietly(env, user.id, { email })
  return (await getUser(env, user.id)) ?? bound
}
