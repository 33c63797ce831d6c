/**
 * External sign-in routes: the anti-forgery state, the OIDC authorization URL, and the callbacks
 * of GitHub, Lark and OIDC (code + state) and WeChat (verification code), each only when its
 * login method is enabled. A state issued to a signed-in user turns the callback into a binding;
 * a state is honoured only from the browser it was issued to (its cookie, see state.ts).
 * Callbacks change the session, so they require the X-XSRF-TOKEN header like POST calls. A login
 * callback in a browser signed in as another account answers 'switch' with a token; POST
 * /api/oauth/switch with it confirms (account-switch.ts).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { publicRoute, userRoute } from '../../middleware/access'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { badRequest, forbidden, unauthorized } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { getSettings, type Settings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { siteBaseUrl } from '../../settings/site-url'
import { BINDING_LABEL, type ExternalIdentity, type Provider } from './accounts'
import { bindIdentity, loginWithIdentity } from './complete-login'
import { requireXsrf } from './require-xsrf'
import { SWITCH_TOKEN_PATTERN, takePendingSwitch } from './account-switch'
import { createOAuthState, fromIssuingBrowser, takeOAuthState, readOAuthState, type OAuthState } from './state'
import { githubIdentity } from './providers/github'
import { larkIdentity } from './providers/lark'
import { oidcAuthorizationUrl, oidcIdentity } from './providers/oidc'
import { wechatIdentity } from './providers/wechat'
import type { OptionKey } from '../../../shared/contract/settings'

const ENABLED_SETTING: Record<Provider, OptionKey> = {
  github: 'GitHubOAuthEnabled',
  oidc: 'OIDCAuthEnabled',
  lark: 'LarkAuthEnabled',
  wechat: 'WeChatAuthEnabled',
}

async function enabledSettings(c: Context<HonoEnv>, provider: Provider): Promise<Settings> {
  const settings = await getSettings(c.env, c.executionCtx)
  if (!settings.bool(ENABLED_SETTING[provider])) throw forbidden(`${BINDING_LABEL[provider]} login is not enabled by the administrator`)
  return settings
}

const invalidState = () => badRequest('Invalid or expired state; please start the sign-in again', { fields: { state: 'is invalid or expired' } })

const callbackQuery = z.object({
  code: z.string().trim().min(1, 'is required').max(1024),
  state: z.string().trim().min(1, 'is required').max(64),
})
const codeQuery = z.object({ code: z.string().trim().min(1, 'is required').max(128) })
const endpointQuery = z.object({ state: z.string().trim().max(64).optional() })
const switchSchema = z.object({ token: z.string().trim().regex(SWITCH_TOKEN_PATTERN, 'is invalid') })

type CallbackContext = Context<HonoEnv, string, { out: { query: z.infer<typeof callbackQuery> } }>
type IdentityOf = (settings: Settings, c: CallbackContext, code: string, state: OAuthState) => Promise<ExternalIdentity>

/** A code+state callback: check the state (and who started it), ask the provider, then bind or log in. */
function stateCallback(provider: Provider, identityOf: IdentityOf) {
  return async (c: CallbackContext) => {
    const settings = await enabledSettings(c, provider)
    const { code, state } = c.req.valid('query')
    const record = await readOAuthState(c.env, state)
    if (!record) throw invalidState()
    if (!(await fromIssuingBrowser(c, record))) {
      throw forbidden('This sign-in was started in another browser; please start it again here')
    }
    if (record.userId !== null) {
      const me = c.get('user')
      if (!me) throw unauthorized('Sign in again to bind this account')
      if (me.id !== record.userId) throw forbidden('This binding was started by another account')
    }
    const identity = await identityOf(settings, c, code, record)
    // The provider answered: take the state now (atomically), so a replayed or parallel callback stops here.
    if (!(await takeOAuthState(c.env, state))) throw invalidState()
    return record.userId !== null ? bindIdentity(c, record.userId, provider, identity) : loginWithIdentity(c, settings, provider, identity)
  }
}

export const oauthRoutes = new Hono<HonoEnv>()
  .get('/oauth/state', publicRoute, criticalRateLimit('oauth'), async (c) => {
    const { state } = await createOAuthState(c, c.get('user')?.id)
    return ok(c, state)
  })
  .get('/oauth/endpoint', publicRoute, criticalRateLimit('oauth'), validate('query', endpointQuery), async (c) => {
    const settings = await enabledSettings(c, 'oidc')
    const given = c.req.valid('query').state
    let state: string
    let nonce: string
    if (given) {
      const record = await readOAuthState(c.env, given)
      if (!record) throw invalidState()
      state = given
      nonce = record.nonce
    } else {
      ;({ state, nonce } = await createOAuthState(c, c.get('user')?.id))
    }
    return ok(c, await oidcAuthorizationUrl(settings, siteBaseUrl(c, settings), state, nonce))
  })
  .get(
    '/oauth/github',
    publicRoute,
    criticalRateLimit('oauth'),
    requireXsrf,
    validate('query', callbackQuery),
    stateCallback('github', (settings, _c, code) => githubIdentity(settings, code))
  )
  .get(
    '/oauth/lark',
    publicRoute,
    criticalRateLimit('oauth'),
    requireXsrf,
    validate('query', callbackQuery),
    stateCallback('lark', (settings, _c, code) => larkIdentity(settings, code))
  )
  .get(
    '/oauth/oidc',
    publicRoute,
    criticalRateLimit('oauth'),
    requireXsrf,
    validate('query', callbackQuery),
    stateCallback('oidc', (settings, c, code, record) => oidcIdentity(settings, siteBaseUrl(c, settings), code, record.nonce))
  )
  .get('/oauth/wechat', publicRoute, criticalRateLimit('oauth'), requireXsrf, validate('query', codeQuery), async (c) => {
    const settings = await enabledSettings(c, 'wechat')
    const identity = await wechatIdentity(settings, c.req.valid('query').code)
    return loginWithIdentity(c, settings, 'wechat', identity)
  })
  .post('/oauth/switch', userRoute, criticalRateLimit('oauth'), validate('json', switchSchema), async (c) => {
    const pending = await takePendingSwitch(c.env, c.req.valid('json').token, c.get('user')!.id)
    if (!pending) throw badRequest('This account switch has expired; please sign in again', { fields: { token: 'is invalid or expired' } })
    const settings = await enabledSettings(c, pending.provider)
    return loginWithIdentity(c, settings, pending.provider, pending.identity, true)
  })
  .get('/oauth/wechat/bind', userRoute, criticalRateLimit('oauth'), requireXsrf, validate('query', codeQuery), async (c) => {
    const settings = await enabledSettings(c, 'wechat')
    const identity = await wechatIdentity(settings, c.req.valid('query').code)
    return bindIdentity(c, c.get('user')!.id, 'wechat', identity)
  })
