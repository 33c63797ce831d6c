/**
 * Test client for the management API inside workerd: keeps cookies like a browser, echoes the
 * XSRF cookie in X-XSRF-TOKEN (unless told not to) and returns status + parsed body.
 */
import { exports } from 'cloudflare:workers'

export interface ApiResult<T = any> {
  status: number
  body: { success: boolean; message: string; data: T }
  headers: Headers
}

export class TestClient {
  cookies = new Map<string, string>()
  constructor(
    private readonly base = 'http://gateway.test',
    /** Where requests go: the Worker's own entry with the test env, unless a test passes its own env. */
    private readonly send: (request: Request) => Promise<Response> = (request) => exports.default.fetch(request)
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async raw(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {}) {
    const headers: Record<string, string> = { ...init.headers }
    if (this.cookies.size) headers.cookie = this.cookieHeader()
    if (init.csrf !== false && this.cookies.has('XSRF-TOKEN')) headers['X-XSRF-TOKEN'] = this.cookies.get('XSRF-TOKEN')!
    let body: BodyInit | undefined
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await this.send(new Request(this.base + path, { method, headers, body }))
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';')
      const idx = pair!.indexOf('=')
      const name = pair!.slice(0, idx)
      const value = pair!.slice(idx + 1)
      if (/max-age=0/i.test(set) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  async call<T = any>(method: string, path: string, init: Parameters<TestClient['raw']>[2] = {}): Promise<ApiResult<T>> {
    const res = await this.raw(method, path, init)
    const text = await res.text()
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = { raw: text }
    }
    return { status: res.status, body, headers: res.headers }
  }

  get<T = any>(path: string, init?: Parameters<TestClient['raw']>[2]) {
    return this.call<T>('GET', path, init)
  }
  post<T = any>(path: string, body?: unknown, init: Parameters<TestClient['raw']>[2] = {}) {
    return this.call<T>('POST', path, { ...init, body })
  }
  put<T = any>(path: string, body?: unknown, init: Parameters<TestClient['raw']>[2] = {}) {
    return this.call<T>('PUT', path, { ...init, body })
  }
  delete<T = any>(path: string, init?: Parameters<TestClient['raw']>[2]) {
    return this.call<T>('DELETE', path, init)
  }
}

export const ROOT = { username: 'root', password: 'root-password-1' }

/** A signed-out client that has loaded /api/status first, as the console does when it opens. */
export async function browserClient(): Promise<TestClient> {
  const client = new TestClient()
  await client.get('/api/status')
  return client
}

/** Fresh install → root account; returns a client signed in as root. */
export async function setupRoot(): Promise<TestClient> {
  const root = await browserClient()
  const res = await root.post('/api/setup', ROOT)
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`)
  return root
}

/** Registers and signs in a user; returns the client and the user's id. */
export async function signedInUser(username: string, password = 'user-password-1') {
  const client = await browserClient()
  const reg = await client.post('/api/user/register', { username, password })
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`)
  const login = await client.post('/api/user/login', { username, password })
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`)
  return { client, id: login.body.data.id as number }
}
