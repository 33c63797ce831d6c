import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { ROOT, TestClient, setupRoot, signedInUser } from '../../test/client'

describe('first-run setup', () => {
  it('reports setup needed, works exactly once, and signs the root in', async () => {
    const anon = new TestClient()
    const status = await anon.get('/api/status')
    expect(status.status).toBe(200)
    expect(status.body.data.setup_needed).toBe(true)

    const root = await setupRoot()
    const self = await root.get('/api/user/self')
    expect(self.body.data).toMatchObject({ username: ROOT.username, role: 100 })

    const again = new TestClient()
    await again.get('/api/status')
    const second = await again.post('/api/setup', { username: 'intruder', password: 'password-123' })
    expect(second.status).toBe(409)
    expect(second.body.success).toBe(false)
    expect((await anon.get('/api/status')).body.data.setup_needed).toBe(false)

    const row = await env.DB.prepare('SELECT password FROM users WHERE username = ?').bind(ROOT.username).first<{ password: string }>()
    expect(row!.password).toMatch(/^pbkdf2_sha256\$100000\$/)
    expect(row!.password).not.toContain(ROOT.password)
  })

  it('refuses a weak root password with field messages', async () => {
    const anon = new TestClient()
    await anon.get('/api/status')
    const res = await anon.post('/api/setup', { username: 'ro', password: 'short' })
    expect(res.status).toBe(400)
    expect(res.body.data.fields).toMatchObject({ username: expect.any(String), password: expect.any(String) })
  })
})

describe('login, sessions and CSRF', () => {
  it('logs in by username or email, sets an HttpOnly Lax session cookie, logs out for good', async () => {
    await setupRoot()
    const c = new TestClient()
    await c.get('/api/status')
    const res = await c.raw('POST', '/api/user/login', { body: { username: ROOT.username, password: ROOT.password } })
    expect(res.status).toBe(200)
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith('session='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    const stolen = c.cookies.get('session')!

    expect((await c.get('/api/user/self')).status).toBe(200)
    expect((await c.get('/api/user/logout')).status).toBe(200)
    expect((await c.get('/api/user/self')).status).toBe(401)

    // The old cookie value no longer works anywhere.
    const replay = new TestClient()
    replay.cookies.set('session', stolen)
    expect((await replay.get('/api/user/self')).status).toBe(401)
  })

  it('issues a new session id at login (no fixation)', async () => {
    await setupRoot()
    const c = new TestClient()
    await c.get('/api/status')
    c.cookies.set('session', 'attacker-chosen-session-id')
    await c.post('/api/user/login', ROOT)
    expect(c.cookies.get('session')).not.toBe('attacker-chosen-session-id')
    const attacker = new TestClient()
    attacker.cookies.set('session', 'attacker-chosen-session-id')
    expect((await attacker.get('/api/user/self')).status).toBe(401)
  })

  it('rejects a wrong password with 401 and a disabled login method with 403', async () => {
    const root = await setupRoot()
    const c = new TestClient()
    await c.get('/api/status')
    const bad = await c.post('/api/user/login', { username: ROOT.username, password: 'wrong-password' })
    expect(bad.status).toBe(401)
    expect(bad.body).toMatchObject({ success: false, message: 'Invalid username or password' })
    await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'false' })
    expect((await c.post('/api/user/login', ROOT)).status).toBe(403)
  })

  it('refuses a state-changing cookie call without the X-XSRF-TOKEN header', async () => {
    const root = await setupRoot()
    const noHeader = await root.put('/api/option/', { key: 'SystemName', value: 'X' }, { csrf: false })
    expect(noHeader.status).toBe(403)
    const wrong = await root.put('/api/option/', { key: 'SystemName', value: 'X' }, { csrf: false, headers: { 'X-XSRF-TOKEN': 'nope' } })
    expect(wrong.status).toBe(403)
    const good = await root.put('/api/option/', { key: 'SystemName', value: 'Gateway X' })
    expect(good.status).toBe(200)
    expect((await root.get('/api/status')).body.data.system_name).toBe('Gateway X')
  })

  it('accepts a personal access token in Authorization without CSRF and never stores it in clear', async () => {
    const root = await setupRoot()
    const token = (await root.get('/api/user/token')).body.data as string
    expect(token).toHaveLength(32)
    const script = new TestClient()
    const res = await script.call('GET', '/api/user/self', { headers: { Authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    expect(res.body.data.username).toBe(ROOT.username)
    const put = await script.call('PUT', '/api/option/', { headers: { Authorization: token }, body: { key: 'SystemName', value: 'Scripted' } })
    expect(put.status).toBe(200)
    const stored = await env.DB.prepare('SELECT access_token FROM users WHERE username = ?').bind(ROOT.username).first<{ access_token: string }>()
    expect(stored!.access_token).not.toBe(token)
  })
})

describe('registration', () => {
  it('registers with new-user quota (paid at the first top-up) written as a system log, honouring the toggles', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { QuotaForNewUser: '1234' } })
    const { client, id } = await signedInUser('alice')
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ id, username: 'alice', role: 1, quota: 0 })
    const [code] = (await root.post('/api/redemption/', { name: 'first', quota: 1, count: 1 })).body.data as string[]
    expect((await client.post('/api/user/topup', { key: code })).status).toBe(200)
    const self = await client.get('/api/user/self')
    expect(self.body.data).toMatchObject({ id, username: 'alice', role: 1, quota: 1235 })
    const log = await env.DB.prepare('SELECT type, quota FROM logs WHERE user_id = ? AND type = 4').bind(id).first()
    expect(log).toMatchObject({ type: 4, quota: 1234 })

    const dup = new TestClient()
    await dup.get('/api/status')
    expect((await dup.post('/api/user/register', { username: 'alice', password: 'password-123' })).status).toBe(409)

    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'false' })
    expect((await dup.post('/api/user/register', { username: 'bob', password: 'password-123' })).status).toBe(403)
  })

  it('enforces the email domain whitelist', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com' } })
    const c = new TestClient()
    await c.get('/api/status')
    const bad = await c.post('/api/user/register', { username: 'carol', password: 'password-123', email: 'c@evil.test' })
    expect(bad.status).toBe(400)
    const good = await c.post('/api/user/register', { username: 'carol', password: 'password-123', email: 'c@example.com' })
    expect(good.status).toBe(200)
  })

  it('validates profile updates and requires the current password to change it', async () => {
    await setupRoot()
    const { client } = await signedInUser('dave')
    expect((await client.put('/api/user/self', { username: 'ab' })).status).toBe(400)
    expect((await client.put('/api/user/self', { password: 'new-password-1' })).status).toBe(400)
    const changed = await client.put('/api/user/self', { password: 'new-password-1', original_password: 'user-password-1' })
    expect(changed.status).toBe(200)
    // still signed in on this browser with a fresh session
    expect((await client.get('/api/user/self')).status).toBe(200)
    const relog = new TestClient()
    await relog.get('/api/status')
    expect((await relog.post('/api/user/login', { username: 'dave', password: 'new-password-1' })).status).toBe(200)
  })
})
