/**
 * An account's sign-in methods as administrators see them (GET /api/user/:id/sign_in_methods)
 * and unbinding one for the user (DELETE /api/user/:id/sign_in_methods/:type). One table lists
 * every method, what it shows and how it is removed, so a new method (passkeys) is one more row.
 * The rank rule applies (an admin acts only on lower ranks); the last way to sign in of an
 * account without a password is never removed (accounts.ts); each unbind leaves a manage-log row.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { adminRoute } from '../../middleware/access'
import { badRequest, forbidden } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { idParam, validate } from '../../lib/validate'
import { clientIp } from '../../lib/client-ip'
import { auditLog } from '../../logs/audit-log'
import { unbindFromUser, type BindingType } from '../oauth/accounts'
import { unbindTelegram } from '../../telegram/account'
import { assertCanManage, targetUser } from './users.admin'
import type { User } from '../../db/schema'
import type { HonoEnv, SessionUser } from '../../env'
import type { SignInMethod, SignInMethodType } from '../../../shared/contract/users'

interface MethodRow {
  /** What the console shows: the bound id or address, '' when not bound. */
  value: (u: User) => string
  /** False for bindings that are not a way into the console (Telegram is the bot's chat link). */
  signIn: boolean
  unbind: (env: Env, u: User) => Promise<unknown>
}

const external = (type: BindingType, value: (u: User) => string): MethodRow => ({ value, signIn: true, unbind: (env, u) => unbindFromUser(env, u.id, type) })

const METHODS: Record<SignInMethodType, MethodRow> = {
  email: external('email', (u) => u.email),
  github: external('github', (u) => u.githubId),
  oidc: external('oidc', (u) => u.oidcId),
  wechat: external('wechat', (u) => u.wechatId),
  lark: external('lark', (u) => u.larkId),
  telegram: { value: (u) => (u.telegramId ? String(u.telegramId) : ''), signIn: false, unbind: (env, u) => unbindTelegram(env, u.id) },
}
const TYPES = Object.keys(METHODS) as [SignInMethodType, ...SignInMethodType[]]

export function signInMethods(u: User): SignInMethod[] {
  return TYPES.map((type) => {
    const value = METHODS[type].value(u)
    return { type, bound: value !== '', value, sign_in: METHODS[type].signIn }
  })
}

async function managedTarget(env: Env, actor: SessionUser, id: number) {
  const target = await targetUser(env, { id })
  assertCanManage(actor, target)
  // Your own methods are changed on your profile, where the session that changes them is yours.
  if (target.id === actor.id) throw forbidden('Manage your own sign-in methods on your profile')
  return target
}

const methodParam = idParam.extend({ type: z.enum(TYPES, `must be one of ${TYPES.join(', ')}`) })

export const signInMethodRoutes = new Hono<HonoEnv>()
  .get('/user/:id{[0-9]+}/sign_in_methods', adminRoute, validate('param', idParam), async (c) => {
    const target = await targetUser(c.env, { id: c.req.valid('param').id })
    assertCanManage(c.get('user')!, target)
    return ok(c, signInMethods(target))
  })
  .delete('/user/:id{[0-9]+}/sign_in_methods/:type', adminRoute, validate('param', methodParam), async (c) => {
    const { id, type } = c.req.valid('param')
    const actor = c.get('user')!
    const target = await managedTarget(c.env, actor, id)
    const before = METHODS[type].value(target)
    if (!before) throw badRequest(`Nothing is bound for ${type}`)
    await METHODS[type].unbind(c.env, target)
    await auditLog(c.env, actor, target, `${actor.username} unbound ${type} from ${target.username}`, { unbound: type, user_id: target.id }, clientIp(c.req))
    return ok(c, signInMethods(await targetUser(c.env, { id })), 'Unbound')
  })
