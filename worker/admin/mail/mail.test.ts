import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser, browserClient } from '../../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../../test/test-smtp'

const codeIn = (text: string) => /verification code is: ([A-Z0-9]{6})/.exec(text)?.[1]

describe('verification codes by mail', () => {
  it('mails a code that registration accepts once, and refuses a resend within 60 s', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: { EmailVerificationEnabled: 'true', SystemName: 'Mail Gateway' } })
    const anon = await browserClient()
    const email = uniqueEmail('reg')

    const sent = await anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
    expect(sent.status).toBe(200)
    expect(sent.body.message).toBe('Verification code sent')
    const [mail] = await mailsTo(email)
    expect(mail!.subject).toBe('Mail Gateway email verification code')
    expect(mail!.text).toContain('您的 Mail Gateway 邮箱验证码为')
    const code = codeIn(mail!.text)!
    expect(code).toMatch(/^[A-Z0-9]{6}$/)

    const again = await anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
    expect(again.status).toBe(429)
    expect(again.body.data.retry_after).toBeGreaterThan(50)
    expect(again.body.data.retry_after).toBeLessThanOrEqual(60)
    expect(await mailsTo(email)).toHaveLength(1)

    const wrong = await anon.post('/api/user/register', { username: 'mailer1', password: 'password-123', email, verification_code: 'ZZZZZZ' })
    expect(wrong.status).toBe(400)
    const good = await anon.post('/api/user/register', { username: 'mailer1', password: 'password-123', email, verification_code: code.toLowerCase() })
    expect(good.status).toBe(200)
    const reused = await anon.post('/api/user/register', { username: 'mailer2', password: 'password-123', email, verification_code: code })
    expect(reused.status).toBe(400)
    expect(reused.body.message).toBe('Invalid or expired verification code')
  })

  it('honours the email domain whitelist and answers alike for an address already in use (no code sent)', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: { EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com, example.org' } })
    const anon = await browserClient()
    const outside = `someone.${crypto.randomUUID().slice(0, 6)}@evil.test`
    const refused = await anon.get(`/api/verification?email=${outside}`)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('This email domain is not allowed')
    expect(await mailsTo(outside)).toEqual([])

    const taken = uniqueEmail('taken')
    expect((await anon.post('/api/user/register', { username: 'holder', password: 'password-123', email: taken })).status).toBe(200)
    const dup = await anon.get(`/api/verification?email=${taken.toUpperCase()}`)
    expect(dup.status).toBe(200)
    expect(dup.body.message).toBe('Verification code sent')
    expect(await mailsTo(taken)).toEqual([])
  })

  it('validates the query and says when SMTP is not configured', async () => {
    await setupRoot()
    const anon = await browserClient()
    const bad = await anon.get('/api/verification?email=not-an-email&purpose=spam')
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(['email', 'purpose']))
    const none = await anon.get(`/api/verification?email=${uniqueEmail('nosmtp')}`)
    expect(none.status).toBe(503)
    expect(none.body.message).toMatch(/Email is not configured/)
  })

  it('gives the resend slot back when delivery fails', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root, { SMTPToken: 'wrong-password' })
    const anon = await browserClient()
    const email = uniqueEmail('retry')
    const failed = await anon.get(`/api/verification?email=${email}`)
    expect(failed.status).toBe(502)
    await configureTestSmtp(root)
    expect((await anon.get(`/api/verification?email=${email}`)).status).toBe(200)
    expect(await mailsTo(email)).toHaveLength(1)
  })
})

describe('binding an email to the account', () => {
  it('binds with a bind-purpose code, and 409 when another account took the address meanwhile', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    const { client: alice } = await signedInUser('alice')
    const { client: bob } = await signedInUser('bob')
    const email = uniqueEmail('shared')

    expect((await bob.get(`/api/verification?email=${email}&purpose=bind`)).status).toBe(200)
    const bobCode = codeIn((await mailsTo(email))[0]!.text)!
    // A register-purpose code is not a bind code.
    await env.CACHE.delete(`v1:verify-sent:${email}`)
    expect((await alice.get(`/api/verification?email=${email}&purpose=register`)).status).toBe(200)
    const registerCode = codeIn((await mailsTo(email))[1]!.text)!
    expect((await alice.get(`/api/oauth/email/bind?email=${email}&code=${registerCode}`)).status).toBe(400)

    await env.CACHE.delete(`v1:verify-sent:${email}`)
    expect((await alice.get(`/api/verification?email=${email}&purpose=bind`)).status).toBe(200)
    const aliceCode = codeIn((await mailsTo(email))[2]!.text)!
    const noXsrf = await alice.get(`/api/oauth/email/bind?email=${email}&code=${aliceCode}`, { csrf: false })
    expect(noXsrf.status).toBe(403)
    const bound = await alice.get(`/api/oauth/email/bind?email=${email}&code=${aliceCode}`)
    expect(bound.status).toBe(200)
    expect(bound.body.message).toBe('Email bound')
    expect(bound.body.data.email).toBe(email)
    expect((await alice.get('/api/user/self')).body.data.email).toBe(email)

    const late = await bob.get(`/api/oauth/email/bind?email=${email}&code=${bobCode}`)
    expect(late.status).toBe(409)
    expect(late.body.message).toBe('This email is already bound to another account')
    expect((await bob.get('/api/user/self')).body.data.email).toBe('')
  })

  it('refuses a wrong code and anonymous callers', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    const { client } = await signedInUser('carol')
    const wrong = await client.get(`/api/oauth/email/bind?email=${uniqueEmail('c')}&code=ABCDEF`)
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe('Invalid or expired verification code')
    expect((await (await browserClient()).get(`/api/oauth/email/bind?email=a@example.com&code=ABCDEF`)).status).toBe(401)
  })
})

describe('password reset by mail', () => {
  async function userWithEmail(name: string) {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { key: 'ServerAddress', value: 'https://gw.example.com/' })
    const email = uniqueEmail(name)
    const session = await browserClient()
    expect((await session.post('/api/user/register', { username: name, password: 'old-password-1', email })).status).toBe(200)
    expect((await session.post('/api/user/login', { username: name, password: 'old-password-1' })).status).toBe(200)
    return { root, email, session }
  }

  const linkIn = (text: string) => new URL(/https:\/\/\S+/.exec(text)![0])

  it('mails a single-use link that sets a new random password and ends other sessions', async () => {
    const { email, session } = await userWithEmail('resetme')
    const anon = await browserClient()
    const asked = await anon.get(`/api/reset_password?email=${encodeURIComponent(email)}`)
    expect(asked.status).toBe(200)
    const [mail] = await mailsTo(email)
    const link = linkIn(mail!.text)
    expect(`${link.origin}${link.pathname}`).toBe('https://gw.example.com/user/reset')
    expect(link.searchParams.get('email')).toBe(email)
    const token = link.searchParams.get('token')!
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/)
    // Stored hashed, with a 15-minute lifetime.
    const { results: keys } = await env.DB.prepare("SELECT key, expires_at FROM single_use_secrets WHERE key LIKE 'v1:reset:%'").all<{ key: string; expires_at: number }>()
    expect(keys).toHaveLength(1)
    expect(keys[0]!.key).not.toContain(token)
    expect(keys[0]!.expires_at - Date.now() / 1000).toBeGreaterThan(880)
    expect(keys[0]!.expires_at - Date.now() / 1000).toBeLessThanOrEqual(900)

    const reset = await anon.post('/api/user/reset', { email, token })
    expect(reset.status).toBe(200)
    const password = reset.body.data as string
    expect(password.length).toBeGreaterThanOrEqual(12)
    expect((await session.get('/api/user/self')).status).toBe(401)
    const fresh = await browserClient()
    expect((await fresh.post('/api/user/login', { username: 'resetme', password: 'old-password-1' })).status).toBe(401)
    expect((await fresh.post('/api/user/login', { username: 'resetme', password })).status).toBe(200)

    const reused = await anon.post('/api/user/reset', { email, token })
    expect(reused.status).toBe(400)
    expect(reused.body.message).toBe('Invalid link')
  })

  it("answers 'Invalid link' for an expired token or another email, and hides unknown addresses", async () => {
    const { email } = await userWithEmail('expiry')
    const anon = await browserClient()
    expect((await anon.get(`/api/reset_password?email=${email}`)).status).toBe(200)
    const token = linkIn((await mailsTo(email))[0]!.text).searchParams.get('token')!
    expect((await anon.post('/api/user/reset', { email: uniqueEmail('other'), token })).body.message).toBe('Invalid link')
    // An expired link: its record's lifetime has run out.
    await env.DB.prepare("UPDATE single_use_secrets SET expires_at = 0 WHERE key LIKE 'v1:reset:%'").run()
    const expired = await anon.post('/api/user/reset', { email, token })
    expect(expired.status).toBe(400)
    expect(expired.body.message).toBe('Invalid link')

    const stranger = uniqueEmail('stranger')
    const unknown = await anon.get(`/api/reset_password?email=${stranger}`)
    expect(unknown.status).toBe(200)
    expect(unknown.body.message).toBe((await anon.get(`/api/reset_password?email=${stranger}`)).body.message)
    expect(await mailsTo(stranger)).toEqual([])
  })

  it('sends at most one reset mail per address per minute, still answering success', async () => {
    const { email } = await userWithEmail('flood')
    const anon = await browserClient()
    expect((await anon.get(`/api/reset_password?email=${email}`)).status).toBe(200)
    expect((await anon.get(`/api/reset_password?email=${email}`)).status).toBe(200)
    expect(await mailsTo(email)).toHaveLength(1)
  })
})
