import { afterEach, describe, expect, it, vi } from 'vitest'
import { ROOT, TestClient, setupRoot } from '../test/client'
import { jsonResponse, mockProviders } from '../test/oauth-provider-mock'
import { SITEVERIFY_URL } from './turnstile'

const GOOD = 'good-turnstile-token'

function mockSiteverify(opts: { down?: boolean } = {}) {
  return mockProviders({
    [SITEVERIFY_URL]: (_req, body) => {
      if (opts.down) throw new TypeError('Network connection lost.')
      const form = new URLSearchParams(body)
      const success = form.get('secret') === 'turnstile-secret' && form.get('response') === GOOD
      return jsonResponse({ success, 'error-codes': success ? [] : ['invalid-input-response'] })
    },
  })
}

async function enableTurnstile() {
  const root = await setupRoot()
  const res = await root.put('/api/option/', {
    options: { TurnstileSiteKey: 'site-key', TurnstileSecretKey: 'turnstile-secret', TurnstileCheckEnabled: 'true' },
  })
  expect(res.status).toBe(200)
  const anon = new TestClient()
  await anon.get('/api/status')
  return { root, anon }
}

afterEach(() => vi.restoreAllMocks())

describe('Turnstile gate', () => {
  it('lets everything through without a siteverify call while disabled', async () => {
    await setupRoot()
    const mock = mockSiteverify()
    const c = new TestClient()
    await c.get('/api/status')
    expect((await c.post('/api/user/login', ROOT)).status).toBe(200)
    expect(mock.calls).toHaveLength(0)
  })

  it('refuses login with no token and with a rejected token', async () => {
    const { anon } = await enableTurnstile()
    const mock = mockSiteverify()
    const missing = await anon.post('/api/user/login', ROOT)
    expect(missing.status).toBe(403)
    expect(missing.body.message).toBe('Turnstile token is empty')
    expect(mock.calls).toHaveLength(0)
    const rejected = await anon.post('/api/user/login', { ...ROOT, turnstile: 'forged' })
    expect(rejected.status).toBe(403)
    expect(rejected.body.message).toBe('Turnstile verification failed')
    expect(anon.cookies.has('session')).toBe(false)
  })

  it('accepts a valid token from the JSON body and the route still reads the body', async () => {
    const { anon } = await enableTurnstile()
    const mock = mockSiteverify()
    const res = await anon.post('/api/user/login', { ...ROOT, turnstile: GOOD }, { headers: { 'cf-connecting-ip': '203.0.113.7' } })
    expect(res.status).toBe(200)
    expect(res.body.data.username).toBe(ROOT.username)
    // The verification went to siteverify with the secret, the token and the client IP.
    expect(mock.calls).toHaveLength(1)
    expect(mock.calls[0]!.method).toBe('POST')
    expect(Object.fromEntries(new URLSearchParams(mock.calls[0]!.body))).toEqual({ secret: 'turnstile-secret', response: GOOD, remoteip: '203.0.113.7' })
  })

  it('accepts the token in the X-Turnstile-Token header and in the query', async () => {
    const { anon } = await enableTurnstile()
    mockSiteverify()
    const byHeader = await anon.post('/api/user/register', { username: 'turnuser', password: 'password-123' }, { headers: { 'X-Turnstile-Token': GOOD } })
    expect(byHeader.status).toBe(200)
    const byQuery = await anon.post(`/api/user/login?turnstile=${GOOD}`, { username: 'turnuser', password: 'password-123' })
    expect(byQuery.status).toBe(200)
  })

  it('guards registration, verification codes and reset mails too', async () => {
    const { anon } = await enableTurnstile()
    mockSiteverify()
    expect((await anon.post('/api/user/register', { username: 'nobody1', password: 'password-123' })).body.message).toBe('Turnstile token is empty')
    const code = await anon.get('/api/verification?email=a@example.com')
    expect(code.status).toBe(403)
    expect(code.body.message).toBe('Turnstile token is empty')
    const reset = await anon.get('/api/reset_password?email=a@example.com&turnstile=forged')
    expect(reset.status).toBe(403)
    expect(reset.body.message).toBe('Turnstile verification failed')
  })

  it('fails closed when siteverify cannot be reached', async () => {
    const { anon } = await enableTurnstile()
    mockSiteverify({ down: true })
    const res = await anon.post('/api/user/login', { ...ROOT, turnstile: GOOD })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Turnstile verification failed')
  })
})
