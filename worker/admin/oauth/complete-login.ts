/**
 * The end of every external sign-in (GitHub, OIDC, Lark, WeChat): bind the identity to the
 * signed-in user who started the flow (message 'bind', session unchanged), else log in the user
 * who holds it, else register a new account when RegisterEnabled — then a fresh session, with the
 * same answer as password login (data = profile), or, when the account has a second factor, the
 * same pending sign-in as password login (`{require_2fa: true}`). A browser already signed in as someone else is
 * asked first (account-switch.ts) instead of being switched silently.
 */
import type { Context } from 'hono'
import { forbidden } from '../../lib/errors'
import { ok } from '../../lib/respond'
import type { Settings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { signIn } from '../../accounts/second-factor'
import { getUser, profileOf } from '../../accounts/users'
import { BINDING_LABEL, bindToUser, findUserByBinding, registerExternalUser, type ExternalIdentity, type Provider } from './accounts'
import { askBeforeSwitching } from './account-switch'

export const BIND_MESSAGE = 'bind'

export async function bindIdentity(c: Context<HonoEnv>, userId: number, provider: Provider, identity: ExternalIdentity) {
  const user = await bindToUser(c.env, userId, provider, identity.id)
  return ok(c, profileOf(user), BIND_MESSAGE)
}

/** `confirmed`: the signed-in user already agreed to switch (POST /api/oauth/switch). */
export async function loginWithIdentity(c: Context<HonoEnv>, settings: Settings, provider: Provider, identity: ExternalIdentity, confirmed = false) {
  const holder = await findUserByBinding(c.env, provider, identity.id)
  const me = c.get('user')
  if (me && !confirmed && holder?.id !== me.id) {
    const target = holder ? ((await getUser(c.env, holder.id))?.username ?? null) : null
    return askBeforeSwitching(c, { id: me.id, username: me.username }, target, provider, identity)
  }
  if (holder) return signIn(c, (await getUser(c.env, holder.id))!)
  if (!settings.bool('RegisterEnabled')) {
    throw forbidden(`No account is bound to this ${BINDING_LABEL[provider]} account and new registrations are closed by the administrator`)
  }
  return signIn(c, await registerExternalUser(c.env, settings, provider, identity))
}
