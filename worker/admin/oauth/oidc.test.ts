import { afterEach, describe, expect, it, vi } from 'vitest'
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose'
import { TestClient, setupRoot, signedInUser, browserClient } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'

const ISSUER = 'https://id.example.com'
const CLIENT_ID = 'gateway-client'
const CLIENT_SECRET = 'oidc-secret'

type Tamper = (claims: JWTPayload) => JWTPayload

/** A fake OIDC provider: discovery, JWKS, token endpoint issuing RS256 ID tokens signed in the test, userinfo. */
async function oidcProvider(opts: { tamper?: Tamper; foreignKey?: boolean; discovery?: (doc: Record<string, unknown>) => Response } = {}) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const other = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }
  const nonces = new Map<string, string>()
  const doc = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/authorize`,
    token_endpoint: `${ISSUER}/token`,
    jwks_uri: `${ISSUER}/jwks`,
    userinfo_endpoint: `${ISSUER}/userinfo`,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  }
  const mock = mockProviders({
    [`${ISSUER}/.well-known/openid-configuration`]: () => (opts.discovery ? opts.discovery(doc) : jsonResponse(doc)),
    [`${ISSUER}/jwks`]: () => jsonResponse({ keys: [jwk] }),
    [`${ISSUER}/userinfo`]: (req) =>
      req.headers.get('authorization') === 'Bearer at-1' ? jsonResponse({ sub: 'subject-1', nickname: 'nick-from-userinfo' }) : jsonResponse({}, 401),
    [`${ISSUER}/token`]: async (req, body) => {
      const form = new URLSearchParams(body)
      if (req.headers.get('authorization') !== `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`) return jsonResponse({ error: 'invalid_client' }, 401)
      const code = form.get('code')!
      if (!code.startsWith('good')) return jsonResponse({ error: 'invalid_grant', error_description: 'Authorization code is invalid or expired' }, 400)
      const now = Math.floor(Date.now() / 1000)
      let claims: JWTPayload = {
        iss: ISSUER,
        aud: CLIENT_ID,
        sub: 'subject-1',
        iat: now,
        exp: now + 300,
        nonce: nonces.get(code),
        preferred_username: 'oidc-user',
        email: 'oidc-user@id.example.com',
        email_verified: true,
        name: 'OIDC User',
      }
      if (opts.tamper) claims = opts.tamper(claims)
      const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'key-1' }).sign(opts.foreignKey ? other.privateKey : privateKey)
      return jsonResponse({ access_token: 'at-1', token_type: 'Bearer', id_token: idToken })
    },
  })
  /** What the provider's authorize page would do: remember the nonce for the code it hands out. */
  const authorize = (url: string, code = 'good-code') => {
    const params = new URL(url).searchParams
    nonces.set(code, params.get('nonce')!)
    return { code, state: params.get('state')! }
  }
  return { mock, authorize }
}

async function enableOidc(extra: Record<string, string> = {}) {
  const root = await setupRoot()
  const res = await root.put('/api/option/', {
    options: { OIDCClientId: CLIENT_ID, OIDCClientSecret: CLIENT_SECRET, OIDCIssuer: `${ISSUER}/`, OIDCAuthEnabled: 'true', ...extra },
  })
  expect(res.status).toBe(200)
  return root
}

/** endpoint → provider authorize → callback, as the console drives it. */
async function signIn(client: TestClient, authorize: (url: string) => { code: string; state: string }) {
  const endpoint = await client.get('/api/oauth/endpoint')
  expect(endpoint.status).toBe(200)
  const { code, state } = authorize(endpoint.body.data)
  return client.get(`/api/oauth/oidc?code=${code}&state=${state}`)
}

afterEach(() => vi.restoreAllMocks())

describe('OIDC login', () => {
  it('builds the authorization URL from discovery with scopes, redirect, state and nonce', async () => {
    await enableOidc({ ServerAddress: 'https://gw.example.com/' })
    await oidcProvider()
    const res = await (await browserClient()).get('/api/oauth/endpoint')
    const url = new URL(res.body.data)
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'https://gw.example.com/oauth/oidc',
      scope: 'openid email profile',
    })
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9]{32}$/)
  })

  it('registers and logs in with a verified ID token, sending the code with the client secret', async () => {
    await enableOidc({ QuotaForNewUser: '42' })
    const { mock, authorize } = await oidcProvider()
    const c = await browserClient()
    const res = await signIn(c, authorize)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      message: 'Logged in',
      data: { username: 'oidc-user', display_name: 'OIDC User', oidc_id: 'subject-1', email: 'oidc-user@id.example.com', quota: 42 },
    })
    const form = new URLSearchParams(mock.to(`${ISSUER}/token`)[0]!.body)
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'authorization_code', code: 'good-code', redirect_uri: 'http://gateway.test/oauth/oidc' })
    expect((await c.get('/api/user/self')).body.data.oidc_id).toBe('subject-1')
  })

  it('keeps an email the provider did not say it verified out of the account', async () => {
    await enableOidc()
    const { authorize } = await oidcProvider({ tamper: ({ email_verified: _dropped, ...claims }) => claims })
    const res = await signIn(await browserClient(), authorize)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ username: 'oidc-user', email: '' })
  })

  it('takes the username from userinfo when the configured claim is not in the ID token', async () => {
    await enableOidc({ OIDCUsernameClaims: 'nickname' })
    const { authorize } = await oidcProvider()
    const res = await signIn(await browserClient(), authorize)
    expect(res.body.data.username).toBe('nick-from-userinfo')
  })

  it('binds to the signed-in user who opened the endpoint', async () => {
    await enableOidc()
    const { authorize } = await oidcProvider()
    const { client, id } = await signedInUser('alice')
    const res = await signIn(client, authorize)
    expect(res.body).toMatchObject({ message: 'bind', data: { id, username: 'alice', oidc_id: 'subject-1' } })
  })

  const rejected: [string, Parameters<typeof oidcProvider>[0], string][] = [
    ['a signature by another key', { foreignKey: true }, 'OIDC login failed: the ID token is invalid (ERR_JWS_SIGNATURE_VERIFICATION_FAILED)'],
    ['another issuer', { tamper: (c) => ({ ...c, iss: 'https://evil.example.com' }) }, 'OIDC login failed: the ID token is invalid (ERR_JWT_CLAIM_VALIDATION_FAILED)'],
    ['another audience', { tamper: (c) => ({ ...c, aud: 'someone-else' }) }, 'OIDC login failed: the ID token is invalid (ERR_JWT_CLAIM_VALIDATION_FAILED)'],
    ['an expired token', { tamper: (c) => ({ ...c, iat: c.iat! - 7200, exp: c.iat! - 3600 }) }, 'OIDC login failed: the ID token is invalid (ERR_JWT_EXPIRED)'],
    ['a replayed nonce', { tamper: (c) => ({ ...c, nonce: 'not-the-nonce' }) }, 'OIDC login failed: the ID token nonce does not match'],
  ]
  it.each(rejected)('refuses an ID token with %s', async (_name, provider, message) => {
    await enableOidc()
    const { authorize } = await oidcProvider(provider)
    const c = await browserClient()
    const res = await signIn(c, authorize)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
    expect(c.cookies.has('session')).toBe(false)
  })

  it('reports a refused code and a bad state', async () => {
    await enableOidc()
    const { authorize } = await oidcProvider()
    const c = await browserClient()
    const { state } = authorize((await c.get('/api/oauth/endpoint')).body.data)
    const refused = await c.get(`/api/oauth/oidc?code=stale-code&state=${state}`)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('OIDC login failed: Authorization code is invalid or expired')
    expect((await c.get(`/api/oauth/oidc?code=good-code&state=${'B'.repeat(32)}`)).status).toBe(400)
    expect((await c.get(`/api/oauth/endpoint?state=${'B'.repeat(32)}`)).status).toBe(400)
  })

  it('reports a broken discovery document as 502', async () => {
    await enableOidc()
    await oidcProvider({ discovery: () => new Response('oops', { status: 500 }) })
    const broken = await (await browserClient()).get('/api/oauth/endpoint')
    expect(broken.status).toBe(502)
    expect(broken.body.message).toBe('OIDC provider answered with status 500 and no JSON')
  })

  it('refuses a discovery document that names another issuer', async () => {
    await enableOidc()
    await oidcProvider({ discovery: (doc) => jsonResponse({ ...doc, issuer: 'https://evil.example.com' }) })
    const res = await (await browserClient()).get('/api/oauth/endpoint')
    expect(res.status).toBe(502)
    expect(res.body.message).toMatch(/issuer is https:\/\/evil\.example\.com/)
  })

  it('is refused while OIDC login is off', async () => {
    await setupRoot()
    const res = await (await browserClient()).get('/api/oauth/endpoint')
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('OIDC login is not enabled by the administrator')
  })
})
