/**
 * State-changing GETs (issue 12): token rotation, logout, channel tests and balance refreshes keep
 * their one-hub GET paths but require the XSRF header like a POST, so a link, an <img> or a
 * top-level navigation from another site cannot trigger them. Access-token calls stay exempt.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setupRoot } from '../test/client'
import { createChannel } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

describe('state-changing GET routes', () => {
  it('refuses them without the XSRF header and serves them with it', async () => {
    const root = await setupRoot()
    const id = await createChannel({ key: 'good' })
    const paths = ['/api/user/token', '/api/channel/test', `/api/channel/test/${id}`, '/api/channel/update_balance', `/api/channel/update_balance/${id}`, '/api/user/logout']
    for (const path of paths) {
      const refused = await root.get(path, { csrf: false })
      expect([path, refused.status, refused.body.message]).toEqual([path, 403, 'CSRF token missing or invalid: reload the page and try again'])
    }
    // Nothing happened: the session still works and no access token was issued.
    expect((await root.get('/api/user/self')).status).toBe(200)

    const token = (await root.get('/api/user/token')).body.data as string
    expect(token).toHaveLength(32)
    const viaToken = await root.call('GET', '/api/channel/update_balance', { csrf: false, headers: { Authorization: `Bearer ${token}` } })
    expect(viaToken.status).not.toBe(403)
    for (const path of paths.slice(1, -1)) expect((await root.get(path)).status, path).not.toBe(403)
    expect((await root.get('/api/user/logout')).status).toBe(200)
    expect((await root.get('/api/user/self')).status).toBe(401)
  })
})
