/**
 * Node-side client of the management API for e2e tests against the running server: a cookie jar,
 * the XSRF header, and the shared root account of the test server (set up on first use).
 */
import { inject } from 'vitest'

export const SHARED_ROOT = { username: 'root', password: 'root-password-1' }

export class ApiSession {
  private cookies = new Map<string, string>()
  constructor(readonly base: string) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  /** Cookies in Playwright's format, to hand a signed-in session to a browser context. */
  browserCookies() {
    const url = new URL(this.base)
    return [...this.cookies].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/' }))
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; message: string; data: T } }> {
    const headers: Record<string, string> = {}
    if (this.cookies.size) headers.cookie = this.cookieHeader()
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';')
      const i = pair!.indexOf('=')
      const value = pair!.slice(i + 1)
      if (value === '' || /max-age=0/i.test(set)) this.cookies.delete(pair!.slice(0, i))
      else this.cookies.set(pair!.slice(0, i), value)
    }
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : { success: false, message: '', data: null } }
  }

  async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, path, body)
    if (res.status !== 200 || !res.body.success) throw new Error(`${method} ${path} → ${res.status} ${res.body.message}`)
    return res.body.data
  }

  async login(username: string, password: string) {
    await this.call('GET', '/api/status')
    return this.ok('POST', '/api/user/login', { username, password })
  }
}

/** A root session on the shared e2e server (creating the root account on first use). */
export async function rootSession(base = inject('gatewayUrl')): Promise<ApiSession> {
  const s = new ApiSession(base)
  const status = await s.ok<{ setup_needed: boolean }>('GET', '/api/status')
  if (status.setup_needed) await s.ok('POST', '/api/setup', SHARED_ROOT)
  else await s.login(SHARED_ROOT.username, SHARED_ROOT.password)
  return s
}

/** Registers (if needed) and signs in an ordinary user on the shared server. */
export async function userSession(username: string, password = 'user-password-1', base = inject('gatewayUrl')): Promise<ApiSession> {
  const s = new ApiSession(base)
  await s.call('GET', '/api/status')
  await s.call('POST', '/api/user/register', { username, password })
  await s.login(username, password)
  return s
}

/** A channel pointing at the mock upstream, a price and an API key with balance for a fresh user. */
export async function relayFixture(opts: { model?: string; channelKey?: string; quota?: number; username?: string; price?: { input: number; output: number } } = {}) {
  const root = await rootSession()
  const model = opts.model ?? 'gpt-4o-mini'
  const mock = inject('mockUrl')
  await root.call('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, ...(opts.price ?? { input: 0.075, output: 0.3 }) })
  const [channel] = await root.ok<any[]>('POST', '/api/channel/', {
    type: 8,
    name: `mock-${opts.channelKey ?? 'default'}-${Date.now()}`,
    key: opts.channelKey ?? 'sk-mock-e2e',
    base_url: mock,
    models: [model],
    group: ['default'],
    test_model: model,
  })
  const username = opts.username ?? `e2e${Date.now().toString(36)}`
  const user = await userSession(username)
  const me = await user.ok<{ id: number }>('GET', '/api/user/self')
  await root.ok('POST', `/api/user/quota/${me.id}`, { quota: opts.quota ?? 5_000_000, remark: 'e2e' })
  const token = await user.ok<{ id: number; key: string }>('POST', '/api/token/', { name: 'e2e key', unlimited_quota: true })
  return { root, user, userId: me.id, token, channel, model }
}
