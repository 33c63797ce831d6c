/**
 * OAuth account switch (issue 12): a login callback in a browser already signed in as another
 * account does not switch silently; it answers 'switch' with a token, and only confirming with that
 * token from the same session completes the login.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TestClient, setupRoot, browserClient } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'
import { GITHUB_TOKEN_URL, GITHUB_USER_URL } from './providers/github'

afterEach(() => vi.restoreAllMocks())

async function setup() {
  const root = await setupRoot()
  expect((await root.put('/api/option/', { options: { GitHubClientId: 'gh', GitHubClientSecret: 'gh-secret', GitHubOAuthEnabled: 'true' } })).status).toBe(200)
  mockProviders({
    [GITHUB_TOKEN_URL]: (_req, body) => jsonResponse({ access_token: `tok-${JSON.parse(body).code}`, token_type: 'bearer' }),
    [GITHUB_USER_URL]: (req) =>
      (req.headers.get('authorization') ?? '').endsWith('code-mine') ? jsonResponse({ id: 11, login: 'pw-alice' }) : jsonResponse({ id: 22, login: 'octo-bob' }),
  })
  // octo-bob's account exists (first GitHub login in another browser).
  const other = await browserClient()
  const state = (await other.get('/api/oauth/state')).body.data as string
  expect((await other.get(`/api/oauth/github?code=code-bob&state=${state}`)).status).toBe(200)
  // pw-alice: a password account with GitHub 11 bound.
  const alice = await browserClient()
  expect((await alice.post('/api/user/register', { username: 'pw-alice', password: 'password-123' })).status).toBe(200)
  expect((await alice.post('/api/user/login', { username: 'pw-alice', password: 'password-123' })).status).toBe(200)
  const bindState = (await alice.get('/api/oauth/state')).body.data as string
  expect((await alice.get(`/api/oauth/github?code=code-mine&state=${bindState}`)).body.message).toBe('bind')
  return { alice }
}

/** A login flow started before signing in (state issued anonymously), finished while signed in. */
async function loginCallbackWhileSignedIn(client: TestClient, code: string) {
  expect((await client.get('/api/user/logout')).status).toBe(200)
  const state = (await client.get('/api/oauth/state')).body.data as string
  expect((await client.post('/api/user/login', { username: 'pw-alice', password: 'password-123' })).status).toBe(200)
  return client.get(`/api/oauth/github?code=${code}&state=${state}`)
}

describe('switching accounts through an external login', () => {
  it('asks before switching, keeps the session meanwhile, and switches on confirmation', async () => {
    const { alice } = await setup()
    const res = await loginCallbackWhileSignedIn(alice, 'code-bob')
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('switch')
    expect(res.body.data).toMatchObject({ current: 'pw-alice', target: 'octo-bob', provider: 'github' })
    const token = res.body.data.pending_switch as string
    expect((await alice.get('/api/user/self')).body.data.username).toBe('pw-alice')

    const confirmed = await alice.post('/api/oauth/switch', { token })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({ message: 'Logged in', data: { username: 'octo-bob' } })
    expect((await alice.get('/api/user/self')).body.data.username).toBe('octo-bob')
    // The token was single-use.
    expect((await alice.post('/api/oauth/switch', { token })).status).toBe(400)
  })

  it('only the session that was asked can confirm, and anonymous callers cannot', async () => {
    const { alice } = await setup()
    const token = (await loginCallbackWhileSignedIn(alice, 'code-bob')).body.data.pending_switch as string
    expect((await (await browserClient()).post('/api/oauth/switch', { token })).status).toBe(401)
    const stranger = await browserClient()
    expect((await stranger.post('/api/user/register', { username: 'stranger', password: 'password-123' })).status).toBe(200)
    expect((await stranger.post('/api/user/login', { username: 'stranger', password: 'password-123' })).status).toBe(200)
    expect((await stranger.post('/api/oauth/switch', { token })).status).toBe(400)
    expect((await stranger.get('/api/user/self')).body.data.username).toBe('stranger')
  })

  it('signs the same account in again without asking', async () => {
    const { alice } = await setup()
    const res = await loginCallbackWhileSignedIn(alice, 'code-mine')
    expect(res.body).toMatchObject({ message: 'Logged in', data: { username: 'pw-alice' } })
  })
})
