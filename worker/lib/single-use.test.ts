/**
 * Single-use secrets (issue 12): two concurrent uses of one reset link, verification code or OAuth
 * state cannot both succeed, and a verification code dies after five wrong guesses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, browserClient } from '../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../test/test-smtp'
import { jsonResponse, mockProviders } from '../test/oauth-provider-mock'
import { GITHUB_TOKEN_URL, GITHUB_USER_URL } from '../admin/oauth/providers/github'
import { consumeSecret, guessSecret, MAX_GUESSES, putSecret } from './single-use'

afterEach(() => vi.restoreAllMocks())

describe('single-use secret store', () => {
  it('gives a secret to exactly one of two concurrent consumers', async () => {
    await putSecret(env.DB, 'k', 'v', 60)
    const results = await Promise.all([consumeSecret(env.DB, 'k'), consumeSecret(env.DB, 'k')])
    expect(results.filter((r) => r === 'v')).toHaveLength(1)
    expect(results.filter((r) => r === undefined)).toHaveLength(1)
  })

  it('refuses the right code after five wrong guesses', async () => {
    await putSecret(env.DB, 'code', 'ABC123', 60)
    for (let i = 0; i < MAX_GUESSES; i++) expect(await guessSecret(env.DB, 'code', 'WRONG1')).toBe(false)
    expect(await guessSecret(env.DB, 'code', 'ABC123')).toBe(false)
    // A fresh code starts a fresh count.
    await putSecret(env.DB, 'code', 'ABC123', 60)
    expect(await guessSecret(env.DB, 'code', 'WRONG1')).toBe(false)
    expect(await guessSecret(env.DB, 'code', 'ABC123')).toBe(true)
  })

  it('does not hand out an expired secret', async () => {
    await putSecret(env.DB, 'old', 'v', 60)
    await env.DB.prepare("UPDATE single_use_secrets SET expires_at = 0 WHERE key = 'old'").run()
    expect(await consumeSecret(env.DB, 'old')).toBeUndefined()
  })
})

describe('single-use secrets at the routes', () => {
  it('a reset link used twice at once resets the password once', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { key: 'ServerAddress', value: 'https://gw.example.com/' })
    const email = uniqueEmail('race')
    const anon = await browserClient()
    expect((await anon.post('/api/user/register', { username: 'raceuser', password: 'old-password-1', email })).status).toBe(200)
    await anon.get(`/api/reset_password?email=${encodeURIComponent(email)}`)
    const token = new URL(/https:\/\/\S+/.exec((await mailsTo(email))[0]!.text)![0]).searchParams.get('token')!
    const [a, b] = [await browserClient(), await browserClient()]
    const results = await Promise.all([a.post('/api/user/reset', { email, token }), b.post('/api/user/reset', { email, token })])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
  })

  it('a verification code dies after five wrong guesses, even for the right code', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: { EmailVerificationEnabled: 'true' } })
    const anon = await browserClient()
    const email = uniqueEmail('guess')
    await anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
    const code = /verification code is: ([A-Z0-9]{6})/.exec((await mailsTo(email))[0]!.text)![1]!
    for (let i = 0; i < MAX_GUESSES; i++) {
      const wrong = await anon.post('/api/user/register', { username: `guess${i}`, password: 'password-123', email, verification_code: 'ZZZZZZ' })
      expect(wrong.status).toBe(400)
    }
    const late = await anon.post('/api/user/register', { username: 'guess-ok', password: 'password-123', email, verification_code: code })
    expect(late.status).toBe(400)
    expect(late.body.message).toBe('Invalid or expired verification code')
  })

  it('an OAuth state used by two concurrent callbacks signs in once', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { GitHubClientId: 'gh', GitHubClientSecret: 'gh-secret', GitHubOAuthEnabled: 'true' } })
    mockProviders({
      [GITHUB_TOKEN_URL]: () => jsonResponse({ access_token: 'tok', token_type: 'bearer' }),
      [GITHUB_USER_URL]: () => jsonResponse({ id: 4242, login: 'racer' }),
    })
    const browser = await browserClient()
    const state = (await browser.get('/api/oauth/state')).body.data as string
    const results = await Promise.all([browser.get(`/api/oauth/github?code=c1&state=${state}`), browser.get(`/api/oauth/github?code=c2&state=${state}`)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE github_id = '4242'").first<{ n: number }>()).toEqual({ n: 1 })
  })
})
