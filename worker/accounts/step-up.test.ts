/**
 * Step-up (issue 36): each sensitive action answers 403 `step_up_required` once the sign-in is more
 * than 10 minutes old, passes after POST /api/user/step_up with the password, and asks again 10
 * minutes later (test clock). Access tokens cannot step up; a wrong password does not stamp the
 * session; a registered second-factor verifier is accepted through `{code}`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { setTestClockOffset } from '../lib/clock'
import { ROOT, TestClient, setupRoot, signedInUser } from '../test/client'
import { createChannel, createToken, createUser } from '../test/factories'
import { CONFIGS, useFakeGatewayApis } from '../test/payments-gateways'
import { registerStepUpVerifier, STEP_UP_REQUIRED } from './step-up'

useFakeGatewayApis()
let offsetMs = 0
const passMinutes = (minutes: number) => {
  offsetMs += minutes * 60_000
  setTestClockOffset({ TEST_CLOCK: '1' }, offsetMs)
}
afterEach(() => {
  offsetMs = 0
  setTestClockOffset({ TEST_CLOCK: '1' }, 0)
})

type Action = (root: TestClient) => Promise<{ status: number; body: any }>

/** Each step-up action, as root runs it; `ok` says what success looks like. */
async function actions(root: TestClient): Promise<Record<string, { run: Action; ok: (r: { status: number; body: any }) => boolean }>> {
  const rootToken = await createToken(1, { name: 'root-key' })
  const user = await createUser({ username: 'promotable' })
  const channelId = await createChannel({ key: 'sk-channel-secret-1' })
  let gateways = 0
  return {
    'reveal own key': { run: (c) => c.post(`/api/token/${rootToken.id}/key`), ok: (r) => r.status === 200 && r.body.data.key === rootToken.key },
    'reveal any key (root)': { run: (c) => c.post(`/api/token/admin/${rootToken.id}/key`), ok: (r) => r.status === 200 && r.body.data.key === rootToken.key },
    'create a payment gateway': {
      run: (c) => c.post('/api/payment/', { name: `gw ${++gateways}`, type: 'epay', currency: 'CNY', config: CONFIGS.epay.config }),
      ok: (r) => r.status === 200,
    },
    'promote an administrator': {
      run: async (c) => {
        await root.post('/api/user/manage', { id: user.id, action: 'demote' })
        return c.post('/api/user/manage', { id: user.id, action: 'promote' })
      },
      ok: (r) => r.status === 200 && r.body.data.role === 10,
    },
    'export logs': { run: (c) => c.raw('GET', '/api/log/export').then(async (res) => ({ status: res.status, body: await res.text() })), ok: (r) => r.status === 200 },
    'import a database': {
      run: (c) => c.post('/api/import/start', { merge: true, identities: { users: [], tokens: [], channels: [], redemptions: [] } }),
      ok: (r) => r.status === 200,
    },
    'reveal a channel secret': {
      run: (c) => c.get(`/api/channel/${channelId}`).then((r) => (r.body.data.key === undefined ? { status: 403, body: { code: STEP_UP_REQUIRED } } : r)),
      ok: (r) => r.status === 200 && r.body.data.key === 'sk-channel-secret-1',
    },
  }
}

const refused = (r: { status: number; body: any }) => r.status === 403 && (r.body.code === STEP_UP_REQUIRED || typeof r.body === 'string')

describe('step-up', () => {
  it('every sensitive action asks after 10 minutes, passes after the password, and asks again 10 minutes later', async () => {
    const root = await setupRoot()
    const list = await actions(root)
    for (const [name, a] of Object.entries(list)) expect(a.ok(await a.run(root)), `${name} right after sign-in`).toBe(true)
    passMinutes(11)
    for (const [name, a] of Object.entries(list)) {
      const r = await a.run(root)
      expect(refused(r), `${name} without step-up: ${r.status}`).toBe(true)
      if (typeof r.body === 'object' && name !== 'reveal a channel secret') expect(r.body.data).toEqual({ code: STEP_UP_REQUIRED, reason: 'password', factors: [] })
    }
    const step = await root.post('/api/user/step_up', { password: ROOT.password })
    expect(step.status).toBe(200)
    for (const [name, a] of Object.entries(list)) expect(a.ok(await a.run(root)), `${name} after step-up`).toBe(true)
    passMinutes(9)
    for (const [name, a] of Object.entries(list)) expect(a.ok(await a.run(root)), `${name} 9 minutes later`).toBe(true)
    passMinutes(2)
    for (const [name, a] of Object.entries(list)) expect(refused(await a.run(root)), `${name} 11 minutes later`).toBe(true)
  })

  it('a wrong password stamps nothing and names the field; the step-up is per session', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('stepper')
    const key = await createToken(id)
    const other = new TestClient()
    await other.get('/api/status')
    await other.post('/api/user/login', { username: 'stepper', password: 'user-password-1' })
    passMinutes(11)
    const wrong = await client.post('/api/user/step_up', { password: 'not-it' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.data.fields.password).toBeDefined()
    expect((await client.post(`/api/token/${key.id}/key`)).status).toBe(403)
    expect((await client.post('/api/user/step_up', { password: 'user-password-1' })).status).toBe(200)
    expect((await client.post(`/api/token/${key.id}/key`)).status).toBe(200)
    expect((await other.post(`/api/token/${key.id}/key`)).body.data.code).toBe(STEP_UP_REQUIRED)
  })

  it('an access token can neither run a step-up action nor step up', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('scripted')
    const key = await createToken(id)
    const token = (await client.get('/api/user/token')).body.data as string
    const script = new TestClient()
    const auth = { headers: { Authorization: `Bearer ${token}` } }
    const reveal = await script.call('POST', `/api/token/${key.id}/key`, auth)
    expect(reveal.status).toBe(403)
    expect(reveal.body.data.reason).toBe('session_required')
    expect((await script.call('POST', '/api/user/step_up', { ...auth, body: { password: 'user-password-1' } })).status).toBe(403)
  })

  it('an account without a password is told to sign in again; a registered second factor steps up with {code}', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('oauthish')
    const key = await createToken(id)
    registerStepUpVerifier('test-factor', async (_c, userId) => (userId === id ? async (proof) => 'code' in proof && proof.code === '424242' : undefined))
    passMinutes(11)
    const asked = await client.post(`/api/token/${key.id}/key`)
    expect(asked.body.data.factors).toEqual(['test-factor'])
    expect((await client.post('/api/user/step_up', { code: '000000' })).status).toBe(400)
    expect((await client.post('/api/user/step_up', { code: '424242' })).status).toBe(200)
    expect((await client.post(`/api/token/${key.id}/key`)).status).toBe(200)
    const { env } = await import('cloudflare:workers')
    await env.DB.prepare(`UPDATE users SET password = '' WHERE id = ?`).bind(id).run()
    passMinutes(11)
    const noPassword = await client.post(`/api/token/${key.id}/key`)
    expect(noPassword.body.data.reason).toBe('no_password')
    expect((await client.post('/api/user/step_up', { password: 'anything' })).body.data.reason).toBe('no_password')
  })
})
