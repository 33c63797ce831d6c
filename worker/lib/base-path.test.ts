/**
 * BASE_PATH at runtime (lib/base-path.ts through the real entry, worker/index.ts): the prefix comes
 * off before routing, `/gw` redirects to `/gw/`, nothing answers outside the prefix, the console's
 * index.html gets its `<base href>`, and cookies and public URLs carry the prefix.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import entry from '../index'
import { ROOT, TestClient } from '../test/client'
import { CONFIGS } from '../test/payments-gateways'
import { config } from './env'
import { routeUnderBase } from './base-path'

const INDEX_HTML = '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/index-abc.js"></script></head><body></body></html>'

/** The ASSETS binding as the asset server answers: index.html for pages (SPA fallback), files as they are. */
function assetsServer(seen: string[]) {
  return {
    fetch: async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      seen.push(url.pathname)
      if (url.pathname.startsWith('/assets/')) return new Response('export {}', { headers: { 'content-type': 'text/javascript', etag: '"js"' } })
      return new Response(INDEX_HTML, { headers: { 'content-type': 'text/html; charset=utf-8', etag: '"index"' } })
    },
  }
}

function underPrefix(base = '/gw') {
  const seen: string[] = []
  const vars = { ...env, BASE_PATH: base, ASSETS: assetsServer(seen) } as unknown as Env
  const send = async (request: Request) => {
    const ctx = createExecutionContext()
    const res = await entry.fetch(request as Request<unknown, IncomingRequestCfProperties>, vars, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  return { seen, send, get: (path: string) => send(new Request(`http://gateway.test${path}`)) }
}

describe('BASE_PATH in the env', () => {
  it('is read without its trailing slash; unset or "/" is the root', () => {
    expect(config({ BASE_PATH: '/gw/' }).basePath).toBe('/gw')
    expect(config({ BASE_PATH: '/team/ai-gw' }).basePath).toBe('/team/ai-gw')
    expect(config({ BASE_PATH: '/' }).basePath).toBe('')
    expect(config({}).basePath).toBe('')
  })

  it('refuses what is not a plain path', () => {
    for (const bad of ['gw', '/gw?x=1', '/g w', '/gw/../api', 'https://host/gw', '//gw']) expect(() => config({ BASE_PATH: bad }), bad).toThrow(/BASE_PATH/)
  })

  it('routes a path inside the prefix only at a segment boundary', () => {
    expect(routeUnderBase('/gw/api/status', '/gw')).toEqual({ kind: 'inside', path: '/api/status' })
    expect(routeUnderBase('/gw/', '/gw')).toEqual({ kind: 'inside', path: '/' })
    expect(routeUnderBase('/gw', '/gw')).toEqual({ kind: 'slash' })
    expect(routeUnderBase('/gwx/api/status', '/gw')).toEqual({ kind: 'outside' })
    expect(routeUnderBase('/api/status', '/gw')).toEqual({ kind: 'outside' })
  })
})

describe('the Worker under BASE_PATH=/gw', () => {
  it('serves the management API and the relay with the prefix taken off', async () => {
    const gw = underPrefix()
    const status = await gw.get('/gw/api/status')
    expect(status.status).toBe(200)
    expect(((await status.json()) as { success: boolean }).success).toBe(true)
    // The relay answers in its own envelope: a key is needed, so 401 from /v1, not a 404 page.
    const models = await gw.get('/gw/v1/models')
    expect(models.status).toBe(401)
    expect(((await models.json()) as { error: { message: string } }).error.message).toBeTruthy()
    // /api/status reads the console's build id from the assets itself, at its root path.
    expect(gw.seen.filter((p) => p.startsWith('/gw'))).toEqual([])
  })

  it('redirects the bare prefix to its slash form, keeping the query', async () => {
    const res = await underPrefix().get('/gw?lang=en')
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe('/gw/?lang=en')
  })

  it('answers 404 outside the prefix, for API paths and pages alike', async () => {
    const gw = underPrefix()
    for (const path of ['/api/status', '/v1/models', '/panel/log', '/', '/gwx/api/status']) expect((await gw.get(path)).status, path).toBe(404)
    expect(gw.seen).toEqual([])
  })

  it('serves the console with <base href> set to the prefix, and assets at their root paths', async () => {
    const gw = underPrefix()
    const page = await gw.get('/gw/panel/log')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<base href="/gw/"')
    expect(html).not.toContain('<base href="/"')
    expect(html).toContain('src="./assets/index-abc.js"')
    expect(page.headers.get('etag')).toBeNull()
    const js = await gw.get('/gw/assets/index-abc.js')
    expect(await js.text()).toBe('export {}')
    expect(js.headers.get('etag')).toBe('"js"')
    expect(gw.seen).toEqual(['/panel/log', '/assets/index-abc.js'])
  })

  it('scopes the session cookie to the prefix and writes public URLs with it', async () => {
    const gw = underPrefix('/gw/')
    const client = new TestClient('http://gateway.test/gw', gw.send)
    await client.get('/api/status')
    const setup = await client.raw('POST', '/api/setup', { body: ROOT })
    expect(setup.status).toBe(200)
    const session = setup.headers.getSetCookie().find((c) => c.startsWith('session='))
    expect(session).toMatch(/; Path=\/gw\/(;|$)/)
    const self = await client.get('/api/user/self')
    expect(self.body.data.username).toBe('root')
    // A payment gateway's notify URL defaults to the site's origin plus the prefix.
    const created = await client.post('/api/payment/', { name: 'Pay', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config })
    expect(created.status).toBe(200)
    expect(created.body.data.notify_url).toMatch(/^http:\/\/gateway\.test\/gw\/api\/payment\/notify\//)
    const out = await client.raw('GET', '/api/user/logout')
    expect(out.headers.getSetCookie().find((c) => c.startsWith('session='))).toMatch(/Path=\/gw\//)
  })
})
