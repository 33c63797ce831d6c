/**
 * The profile's sessions (issue 36): the list shows only the caller's own sessions, marks the
 * current one and never carries the cookie or the stored hash; a revoked session's cookie stops
 * working; sign out everywhere keeps (or not) this browser; last seen is written at most every
 * five minutes; the access token shows as present and can be revoked; a sign-in from a new device
 * and address is mailed when NewDeviceSignInNotice is on.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setTestClockOffset } from '../../lib/clock'
import { sha256Hex } from '../../lib/crypto'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../../test/test-smtp'

afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

async function signIn(username: string, headers: Record<string, string> = {}, password = 'user-password-1') {
  const client = new TestClient()
  await client.get('/api/status')
  const res = await client.post('/api/user/login', { username, password }, { headers })
  expect(res.status).toBe(200)
  return client
}

describe('sessions', () => {
  it('lists only the own sessions, marks the current one and never sends the cookie or the stored hash', async () => {
    await setupRoot()
    const { client: first } = await signedInUser('alice')
    const second = await signIn('alice', { 'user-agent': SAFARI_IOS, 'cf-connecting-ip': '203.0.113.7' })
    const { client: bob } = await signedInUser('bob')
    const res = await second.get('/api/user/sessions')
    expect(res.status).toBe(200)
    const list = res.body.data.sessions as { id: string; device: string; ip: string; current: boolean }[]
    expect(list).toHaveLength(2)
    expect(list[0]).toMatchObject({ current: true, device: 'Safari on iOS', ip: '203.0.113.7' })
    expect(list[1]!.current).toBe(false)
    const text = JSON.stringify(res.body)
    for (const c of [first, second, bob]) {
      const cookie = c.cookies.get('session')!
      expect(text).not.toContain(cookie)
      expect(text).not.toContain(await sha256Hex(cookie))
    }
    const bobIds = ((await bob.get('/api/user/sessions')).body.data.sessions as { id: string }[]).map((s) => s.id)
    expect(bobIds).toHaveLength(1)
    expect(list.map((s) => s.id)).not.toContain(bobIds[0])
    // Another user's session id is not found, and that session keeps working.
    expect((await second.delete(`/api/user/sessions/${bobIds[0]}`)).status).toBe(404)
    expect((await bob.get('/api/user/self')).status).toBe(200)
  })

  it('a revoked session cookie stops working; sign out everywhere keeps this browser or not', async () => {
    await setupRoot()
    const { client: mine } = await signedInUser('carol')
    const other = await signIn('carol')
    const third = await signIn('carol')
    const ids = (await other.get('/api/user/sessions')).body.data.sessions as { id: string; current: boolean }[]
    const otherOwn = ids.find((s) => s.current)!.id
    expect((await mine.delete(`/api/user/sessions/${otherOwn}`)).status).toBe(200)
    expect((await other.get('/api/user/self')).status).toBe(401)
    expect((await third.get('/api/user/self')).status).toBe(200)
    expect((await mine.post('/api/user/sessions/revoke_all', { keep_current: true })).status).toBe(200)
    expect((await third.get('/api/user/self')).status).toBe(401)
    expect((await mine.get('/api/user/self')).status).toBe(200)
    expect((await mine.post('/api/user/sessions/revoke_all', { keep_current: false })).status).toBe(200)
    expect((await mine.get('/api/user/self')).status).toBe(401)
  })

  it('writes last seen at most every five minutes', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('dave')
    const lastSeen = async () => (await env.DB.prepare('SELECT last_seen_at FROM sessions WHERE user_id = ?').bind(id).first<{ last_seen_at: number }>())!.last_seen_at
    const signedInAt = await lastSeen()
    setTestClockOffset({ TEST_CLOCK: '1' }, 4 * 60_000)
    await client.get('/api/user/self')
    expect(await lastSeen()).toBe(signedInAt)
    setTestClockOffset({ TEST_CLOCK: '1' }, 6 * 60_000)
    await client.get('/api/user/self')
    const moved = await lastSeen()
    expect(moved - signedInAt).toBeGreaterThanOrEqual(6 * 60)
    await client.get('/api/user/self')
    expect(await lastSeen()).toBe(moved)
  })

  it('shows whether an access token exists and revokes it', async () => {
    await setupRoot()
    const { client } = await signedInUser('erin')
    expect((await client.get('/api/user/sessions')).body.data.access_token).toBe(false)
    const token = (await client.get('/api/user/token')).body.data as string
    expect((await client.get('/api/user/sessions')).body.data.access_token).toBe(true)
    expect(JSON.stringify((await client.get('/api/user/sessions')).body)).not.toContain(token)
    expect((await client.delete('/api/user/token')).status).toBe(200)
    expect((await client.get('/api/user/sessions')).body.data.access_token).toBe(false)
    expect((await new TestClient().call('GET', '/api/user/self', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401)
  })
})

describe('new-device sign-in notice', () => {
  async function userWithEmail(name: string, notice: boolean) {
    const root = await setupRoot()
    await configureTestSmtp(root, { NewDeviceSignInNotice: String(notice) })
    const email = uniqueEmail(name)
    const client = new TestClient()
    await client.get('/api/status')
    expect((await client.post('/api/user/register', { username: name, password: 'user-password-1', email })).status).toBe(200)
    return email
  }
  const notices = async (email: string) => (await mailsTo(email)).filter((m) => /new sign-in/.test(m.subject))

  it('mails a sign-in from a new device and address, not the first sign-in nor a known device', async () => {
    const email = await userWithEmail('frank', true)
    await signIn('frank', { 'user-agent': CHROME_WIN, 'cf-connecting-ip': '198.51.100.1' })
    expect(await notices(email)).toHaveLength(0)
    await signIn('frank', { 'user-agent': CHROME_WIN, 'cf-connecting-ip': '198.51.100.1' })
    expect(await notices(email)).toHaveLength(0)
    await signIn('frank', { 'user-agent': SAFARI_IOS, 'cf-connecting-ip': '192.0.2.55' })
    const [mail] = await notices(email)
    expect(mail!.text).toContain('Safari on iOS, address 192.0.2.55')
    expect(mail!.text).toContain('"frank"')
    // Back on the first device and address: a live session knows it.
    await signIn('frank', { 'user-agent': CHROME_WIN, 'cf-connecting-ip': '198.51.100.1' })
    expect(await notices(email)).toHaveLength(1)
  })

  it('sends nothing while the setting is off', async () => {
    const email = await userWithEmail('grace', false)
    await signIn('grace', { 'user-agent': CHROME_WIN, 'cf-connecting-ip': '198.51.100.1' })
    await signIn('grace', { 'user-agent': SAFARI_IOS, 'cf-connecting-ip': '192.0.2.55' })
    expect(await notices(email)).toHaveLength(0)
  })
})
