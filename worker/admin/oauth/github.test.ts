import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser, browserClient } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'
import { GITHUB_TOKEN_URL, GITHUB_USER_URL } from './providers/github'
import { totpCode } from '../../lib/totp'

interface GitHubPerson {
  id: number
  login: string
  name?: string
  email?: string
}

const PEOPLE: Record<string, GitHubPerson> = {
  'code-octo': { id: 101, login: 'octo-alice', name: 'Alice Octo', email: 'alice@github.test' },
  'code-bob': { id: 202, login: 'bobcat' },
  'code-taken': { id: 303, login: 'octocat' },
}

function mockGitHub() {
  return mockProviders({
    [GITHUB_TOKEN_URL]: (_req, body) => {
      const { code, client_id, client_secret } = JSON.parse(body)
      if (code === 'code-down') throw new TypeError('Network connection lost.')
      if (client_id !== 'gh-client' || client_secret !== 'gh-secret') return jsonResponse({ error: 'incorrect_client_credentials' })
      if (!PEOPLE[code]) return jsonResponse({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' })
      return jsonResponse({ access_token: `tok-${code}`, token_type: 'bearer' })
    },
    [GITHUB_USER_URL]: (req) => {
      const person = PEOPLE[(req.headers.get('authorization') ?? '').replace('Bearer tok-', '')]
      return person ? jsonResponse(person) : jsonResponse({ message: 'Bad credentials' }, 401)
    },
  })
}

async function enableGitHub(extra: Record<string, string> = {}) {
  const root = await setupRoot()
  const res = await root.put('/api/option/', { options: { GitHubClientId: 'gh-client', GitHubClientSecret: 'gh-secret', GitHubOAuthEnabled: 'true', ...extra } })
  expect(res.status).toBe(200)
  return root
}

async function stateFor(client: TestClient): Promise<string> {
  const res = await client.get('/api/oauth/state')
  expect(res.status).toBe(200)
  expect(res.body.data).toMatch(/^[A-Za-z0-9]{32}$/)
  return res.body.data
}

const userCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM users').first<{ n: number }>())!.n

afterEach(() => vi.restoreAllMocks())

describe('GitHub login', () => {
  it('registers on the first login with the new-user quota, then logs the same person in', async () => {
    await enableGitHub({ QuotaForNewUser: '777' })
    const mock = mockGitHub()
    const first = await browserClient()
    const res = await first.get(`/api/oauth/github?code=code-octo&state=${await stateFor(first)}`)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Logged in')
    expect(res.body.data).toMatchObject({ username: 'octo-alice', display_name: 'Alice Octo', github_id: '101', email: 'alice@github.test', quota: 777 })
    expect((await first.get('/api/user/self')).body.data.username).toBe('octo-alice')
    const users = await userCount()

    const again = await browserClient()
    const second = await again.get(`/api/oauth/github?code=code-octo&state=${await stateFor(again)}`)
    expect(second.status).toBe(200)
    expect(second.body.data.id).toBe(res.body.data.id)
    expect(await userCount()).toBe(users)
    // The code went to GitHub with the client credentials; the user call carried the access token.
    expect(JSON.parse(mock.to(GITHUB_TOKEN_URL)[0]!.body)).toEqual({ client_id: 'gh-client', client_secret: 'gh-secret', code: 'code-octo' })
    expect(mock.to(GITHUB_USER_URL)[0]!.headers.get('authorization')).toBe('Bearer tok-code-octo')
  })

  it('derives a free username when the GitHub login is taken', async () => {
    await enableGitHub()
    await signedInUser('octocat')
    mockGitHub()
    const c = await browserClient()
    const res = await c.get(`/api/oauth/github?code=code-taken&state=${await stateFor(c)}`)
    expect(res.status).toBe(200)
    expect(res.body.data.username).toMatch(/^octocat_[A-Za-z0-9]{4}$/)
  })

  it('binds to the signed-in user with message bind, keeps the session, and refuses a second owner (409)', async () => {
    await enableGitHub()
    mockGitHub()
    const { client: alice, id: aliceId } = await signedInUser('alice')
    const sessionBefore = alice.cookies.get('session')
    const bound = await alice.get(`/api/oauth/github?code=code-bob&state=${await stateFor(alice)}`)
    expect(bound.status).toBe(200)
    expect(bound.body.message).toBe('bind')
    expect(bound.body.data).toMatchObject({ id: aliceId, github_id: '202' })
    expect(alice.cookies.get('session')).toBe(sessionBefore)
    expect((await alice.get('/api/user/self')).body.data.github_id).toBe('202')

    const { client: carol } = await signedInUser('carol')
    const conflict = await carol.get(`/api/oauth/github?code=code-bob&state=${await stateFor(carol)}`)
    expect(conflict.status).toBe(409)
    expect(conflict.body.message).toBe('This GitHub account is already bound to another user')

    const anon = await browserClient()
    const login = await anon.get(`/api/oauth/github?code=code-bob&state=${await stateFor(anon)}`)
    expect(login.body).toMatchObject({ message: 'Logged in', data: { id: aliceId } })
  })

  it('refuses unknown, reused, foreign and missing states', async () => {
    await enableGitHub()
    const mock = mockGitHub()
    const c = await browserClient()
    const unknown = await c.get(`/api/oauth/github?code=code-octo&state=${'A'.repeat(32)}`)
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('Invalid or expired state; please start the sign-in again')
    expect((await c.get('/api/oauth/github?code=code-octo&state=short')).status).toBe(400)
    expect((await c.get('/api/oauth/github?code=code-octo')).body.data.fields.state).toBeDefined()
    expect(mock.calls).toHaveLength(0)

    const state = await stateFor(c)
    expect((await c.get(`/api/oauth/github?code=code-octo&state=${state}`)).status).toBe(200)
    const reused = await (await browserClient()).get(`/api/oauth/github?code=code-octo&state=${state}`)
    expect(reused.status).toBe(400)

    // A binding state belongs to the user who asked for it.
    const { client: dave } = await signedInUser('dave')
    const daveState = await stateFor(dave)
    const { client: erin } = await signedInUser('erin')
    expect((await erin.get(`/api/oauth/github?code=code-bob&state=${daveState}`)).status).toBe(403)
    // Another browser is refused before anything else (the state is bound to dave's browser).
    expect((await (await browserClient()).get(`/api/oauth/github?code=code-bob&state=${daveState}`)).status).toBe(403)
  })

  it('reports provider refusals as 400 and keeps the state for a retry; network failures as 502', async () => {
    await enableGitHub()
    mockGitHub()
    const c = await browserClient()
    const state = await stateFor(c)
    const bad = await c.get(`/api/oauth/github?code=code-expired&state=${state}`)
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('GitHub login failed: The code passed is incorrect or expired.')
    const down = await c.get(`/api/oauth/github?code=code-down&state=${state}`)
    expect(down.status).toBe(502)
    expect(down.body.message).toBe('GitHub is unreachable')
    expect((await c.get(`/api/oauth/github?code=code-octo&state=${state}`)).status).toBe(200)
  })

  it('answers 403 when registration is closed, but still logs in a bound account', async () => {
    const root = await enableGitHub()
    mockGitHub()
    const { client: alice, id } = await signedInUser('alice')
    expect((await alice.get(`/api/oauth/github?code=code-bob&state=${await stateFor(alice)}`)).body.message).toBe('bind')
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'false' })
    const users = await userCount()
    const c = await browserClient()
    const refused = await c.get(`/api/oauth/github?code=code-octo&state=${await stateFor(c)}`)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toMatch(/No account is bound to this GitHub account and new registrations are closed/)
    expect(await userCount()).toBe(users)
    expect((await c.get(`/api/oauth/github?code=code-bob&state=${await stateFor(c)}`)).body.data.id).toBe(id)
  })

  it('answers 403 while GitHub login is off, without calling GitHub', async () => {
    await setupRoot()
    const mock = mockGitHub()
    const c = await browserClient()
    const res = await c.get(`/api/oauth/github?code=code-octo&state=${await stateFor(c)}`)
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('GitHub login is not enabled by the administrator')
    expect(mock.calls).toHaveLength(0)
  })

  it('requires the XSRF header and refuses disabled accounts', async () => {
    const root = await enableGitHub()
    mockGitHub()
    const c = await browserClient()
    const state = await stateFor(c)
    const forged = await c.get(`/api/oauth/github?code=code-octo&state=${state}`, { csrf: false })
    expect(forged.status).toBe(403)
    expect(forged.body.message).toMatch(/CSRF/)
    const created = await c.get(`/api/oauth/github?code=code-octo&state=${state}`)
    expect(created.status).toBe(200)
    expect((await root.post('/api/user/manage', { id: created.body.data.id, action: 'disable' })).status).toBe(200)
    const again = await browserClient()
    const disabled = await again.get(`/api/oauth/github?code=code-octo&state=${await stateFor(again)}`)
    expect(disabled.status).toBe(403)
    expect(disabled.body.message).toBe('This account has been disabled')
    expect(again.cookies.has('session')).toBe(false)
  })

  it('asks an account with two-factor sign-in for its code instead of issuing a session (issue 36)', async () => {
    await enableGitHub()
    mockGitHub()
    const first = await browserClient()
    expect((await first.get(`/api/oauth/github?code=code-octo&state=${await stateFor(first)}`)).status).toBe(200)
    const { secret } = (await first.post('/api/user/2fa/setup')).body.data
    expect((await first.post('/api/user/2fa/enable', { code: await totpCode(secret, Date.now()) })).status).toBe(200)

    const c = await browserClient()
    const res = await c.get(`/api/oauth/github?code=code-octo&state=${await stateFor(c)}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ require_2fa: true, methods: ['totp'] })
    expect(c.cookies.has('session')).toBe(false)
    expect((await c.get('/api/user/self')).status).toBe(401)
    const done = await c.post('/api/user/login/2fa', { code: await totpCode(secret, Date.now() + 30_000) })
    expect(done.status).toBe(200)
    expect(done.body.data.username).toBe('octo-alice')
    expect((await c.get('/api/user/self')).body.data.github_id).toBe('101')
  })
})
