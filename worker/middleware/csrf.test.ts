/**
 * XSRF cookie name (issue 12): over https the double-submit cookie is `__Host-XSRF-TOKEN` (Secure,
 * Path=/, no Domain), and only that cookie is accepted there; plain http keeps `XSRF-TOKEN`.
 */
import { describe, expect, it } from 'vitest'
import { exports } from 'cloudflare:workers'

const call = (url: string, init: RequestInit = {}) => exports.default.fetch(new Request(url, init))

describe('XSRF cookie', () => {
  it('is __Host- prefixed over https, and a plain XSRF-TOKEN cookie tossed in by a subdomain is not accepted there', async () => {
    const first = await call('https://gw.test/api/status')
    const set = first.headers.getSetCookie().find((c) => c.includes('XSRF-TOKEN='))!
    expect(set).toMatch(/^__Host-XSRF-TOKEN=[A-Za-z0-9]{32};/)
    expect(set).toMatch(/Secure/i)
    expect(set).toMatch(/Path=\//i)
    expect(set).not.toMatch(/Domain=/i)
    const token = set.split(';')[0]!.split('=')[1]!

    const tossed = await call('https://gw.test/api/user/login', {
      method: 'POST',
      headers: { cookie: 'XSRF-TOKEN=attacker-chosen', 'X-XSRF-TOKEN': 'attacker-chosen', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x', password: 'y' }),
    })
    expect(tossed.status).toBe(403)
    const own = await call('https://gw.test/api/user/login', {
      method: 'POST',
      headers: { cookie: `__Host-XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x', password: 'y' }),
    })
    expect(own.status).not.toBe(403)
  })

  it('keeps XSRF-TOKEN over plain http (local runtime)', async () => {
    const set = (await call('http://gw.test/api/status')).headers.getSetCookie().find((c) => c.includes('XSRF-TOKEN='))!
    expect(set).toMatch(/^XSRF-TOKEN=/)
  })
})
