/**
 * A console on another origin (CONSOLE_ORIGINS, spec 7.1) through the real entry: a listed origin
 * gets CORS with credentials on /api (preflight included) and the CSRF token in a header it may
 * read, signs in and changes something with it; an unlisted origin gets no CORS header and no token;
 * /v1 answers the listed origin without credentials; nothing changes while the variable is unset.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import worker from '../index'
import { config } from '../lib/env'
import { signedInUser } from '../test/client'
import { createChannel, createToken, createUser, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

const CONSOLE = 'https://console.gw.test'
const withOrigins = { ...env, CONSOLE_ORIGINS: `${CONSOLE}, http://localhost:5173` } as unknown as Env

async function call(path: string, init: RequestInit = {}, vars: Env = withOrigins) {
  const ctx = createExecutionContext()
  const req = new Request(`https://api.gw.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>
  const res = await worker.fetch(req, vars, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

function cookieOf(res: Response, name: string): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  return set?.split(';')[0]?.slice(name.length + 1)
}

describe('CONSOLE_ORIGINS', () => {
  let upstream: ReturnType<typeof mockUpstream> | undefined
  afterEach(() => upstream?.restore())

  it('is a list of exact origins; a path, another scheme or a typo is refused', () => {
    expect(config({ CONSOLE_ORIGINS: 'https://a.test, http://localhost:5173' }).consoleOrigins).toEqual(['https://a.test', 'http://localhost:5173'])
    expect(config({}).consoleOrigins).toEqual([])
    for (const bad of ['https://a.test/console', 'ftp://a.test', 'a.test', 'https://a.test/']) {
      expect(() => config({ CONSOLE_ORIGINS: bad })).toThrow(/CONSOLE_ORIGINS/)
    }
  })

  it('answers a listed origin with credentials and the CSRF token, so its page can sign in and act', async () => {
    const preflight = await call('/api/user/login', {
      method: 'OPTIONS',
      headers: { origin: CONSOLE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-xsrf-token' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(CONSOLE)
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-xsrf-token')

    const status = await call('/api/status', { headers: { origin: CONSOLE } })
    expect(status.headers.get('access-control-allow-origin')).toBe(CONSOLE)
    expect(status.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-xsrf-token')
    const token = status.headers.get('x-xsrf-token')!
    expect(token).toBe(cookieOf(status, '__Host-XSRF-TOKEN'))

    // The double submit still needs both halves: the cookie (sent by the browser) and the header.
    await signedInUser('crossorigin')
    const body = JSON.stringify({ username: 'crossorigin', password: 'user-password-1' })
    const noHeader = await call('/api/user/login', { method: 'POST', headers: { origin: CONSOLE, cookie: `__Host-XSRF-TOKEN=${token}`, 'content-type': 'application/json' }, body })
    expect(noHeader.status).toBe(403)
    expect(noHeader.headers.get('access-control-allow-origin')).toBe(CONSOLE)
    const login = await call('/api/user/login', {
      method: 'POST',
      headers: { origin: CONSOLE, cookie: `__Host-XSRF-TOKEN=${token}`, 'x-xsrf-token': token, 'content-type': 'application/json' },
      body,
    })
    expect(login.status).toBe(200)
    expect(login.headers.get('access-control-allow-origin')).toBe(CONSOLE)
    expect(login.headers.getSetCookie().some((c) => /session/i.test(c))).toBe(true)
  })

  it('gives an unlisted origin no CORS header and no token, and changes nothing while unset', async () => {
    const other = await call('/api/status', { headers: { origin: 'https://evil.test' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    expect(other.headers.get('x-xsrf-token')).toBeNull()
    const preflight = await call('/api/user/login', { method: 'OPTIONS', headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' } })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()

    const unset = await call('/api/status', { headers: { origin: CONSOLE } }, env as unknown as Env)
    expect(unset.headers.get('access-control-allow-origin')).toBeNull()
    expect(unset.headers.get('x-xsrf-token')).toBeNull()
  })

  it('lets the listed origin call /v1 with an API key (no credentials), and SDK calls without Origin are untouched', async () => {
    upstream = mockUpstream()
    const model = 'console-cors-model'
    await setPrice(model, 1, 1)
    await createChannel({ key: 'good', models: model })
    const token = await createToken((await createUser({ quota: 1_000_000 })).id)
    const init = (origin?: string): RequestInit => ({
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })
    const fromConsole = await call('/v1/chat/completions', init(CONSOLE))
    expect(fromConsole.status).toBe(200)
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe(CONSOLE)
    expect(fromConsole.headers.get('access-control-allow-credentials')).toBeNull()
    expect(fromConsole.headers.get('x-request-id')).toBeTruthy()
    const sdk = await call('/v1/chat/completions', init())
    expect(sdk.status).toBe(200)
    expect(sdk.headers.get('access-control-allow-origin')).toBeNull()
  })
})
