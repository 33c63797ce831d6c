/**
 * OAuth login CSRF (security finding 5): a state is bound to the browser it was issued to by an
 * HttpOnly SameSite=Lax cookie whose hash is stored with the state, so a state (and code) fetched
 * by an attacker cannot sign a victim's browser into the attacker's account.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, browserClient } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'
import { GITHUB_TOKEN_URL, GITHUB_USER_URL } from './providers/github'
import { BROWSER_COOKIE } from './state'

afterEach(() => vi.restoreAllMocks())

async function enableGitHub() {
  const root = await setupRoot()
  expect((await root.put('/api/option/', { options: { GitHubClientId: 'gh-client', GitHubClientSecret: 'gh-secret', GitHubOAuthEnabled: 'true' } })).status).toBe(200)
  mockProviders({
    [GITHUB_TOKEN_URL]: () => jsonResponse({ access_token: 'tok-attacker', token_type: 'bearer' }),
    [GITHUB_USER_URL]: () => jsonResponse({ id: 666, login: 'attacker' }),
  })
}

describe('OAuth state bound to the browser', () => {
  it('refuses a callback from another browser than the one that fetched the state, and keeps the state for its owner', async () => {
    await enableGitHub()
    const attacker = await browserClient()
    const state = (await attacker.get('/api/oauth/state')).body.data as string
    const issued = await attacker.raw('GET', '/api/oauth/state')
    const cookie = issued.headers.getSetCookie().find((s) => s.startsWith(`${BROWSER_COOKIE}=`))!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\/api\/oauth/i)

    const victim = await browserClient()
    const forged = await victim.get(`/api/oauth/github?code=code-attacker&state=${state}`)
    expect(forged.status).toBe(403)
    expect(victim.cookies.has('session')).toBe(false)
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE github_id = '666'").first<{ n: number }>()).toEqual({ n: 0 })

    // A guessed or copied cookie value of another browser does not help either.
    victim.cookies.set(BROWSER_COOKIE, 'A'.repeat(43))
    expect((await victim.get(`/api/oauth/github?code=code-attacker&state=${state}`)).status).toBe(403)

    // The browser that started the flow finishes it.
    const own = await attacker.get(`/api/oauth/github?code=code-attacker&state=${state}`)
    expect(own.status).toBe(200)
    expect(attacker.cookies.has('session')).toBe(true)
  })

  it('lets one browser run two flows at once (one cookie for both states)', async () => {
    await enableGitHub()
    const client = await browserClient()
    const first = (await client.get('/api/oauth/state')).body.data as string
    const second = (await client.get('/api/oauth/state')).body.data as string
    expect((await client.get(`/api/oauth/github?code=code-a&state=${first}`)).status).toBe(200)
    const other = await browserClient()
    expect((await other.get(`/api/oauth/github?code=code-a&state=${second}`)).status).toBe(403)
  })
})
