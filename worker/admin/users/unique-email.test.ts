/**
 * One account per email address (issue 12): the unique index on lower(email) (migration 0011)
 * refuses a second account with the same address in any case, and the routes answer 409 with a
 * clear message instead of a 500. Accounts without an address are unaffected.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, browserClient } from '../../test/client'
import { EMAIL_TAKEN_MESSAGE } from '../../db/errors'

describe('unique emails', () => {
  it('refuses registering a second account with the same address in another case', async () => {
    await setupRoot()
    const anon = await browserClient()
    expect((await anon.post('/api/user/register', { username: 'first', password: 'password-123', email: 'Dup@Example.io' })).status).toBe(200)
    const second = await anon.post('/api/user/register', { username: 'second', password: 'password-123', email: 'dup@example.IO' })
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ success: false, message: EMAIL_TAKEN_MESSAGE, code: 'conflict' })
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE username = 'second'").first<{ n: number }>()).toEqual({ n: 0 })
  })

  it('an admin edit giving a user an address in use answers 409; empty addresses are many', async () => {
    const root = await setupRoot()
    const a = (await root.post('/api/user/', { username: 'alpha', password: 'password-1', group: 'default' })).body.data.id
    const b = (await root.post('/api/user/', { username: 'beta', password: 'password-1', group: 'default' })).body.data.id
    expect((await root.put('/api/user/', { id: a, username: 'alpha', display_name: 'A', email: 'shared@example.io', group: 'default' })).status).toBe(200)
    const clash = await root.put('/api/user/', { id: b, username: 'beta', display_name: 'B', email: 'SHARED@example.io', group: 'default' })
    expect(clash.status).toBe(409)
    expect(clash.body.message).toBe(EMAIL_TAKEN_MESSAGE)
    expect((await root.put('/api/user/', { id: b, username: 'beta', display_name: 'B', email: '', group: 'default' })).status).toBe(200)
  })

  it('the database itself refuses a duplicate (case-insensitive), not only the routes', async () => {
    await env.DB.prepare("INSERT INTO users (username, email, aff_code) VALUES ('x1', 'Same@x.io', 'aff00001')").run()
    await expect(env.DB.prepare("INSERT INTO users (username, email, aff_code) VALUES ('x2', 'same@X.io', 'aff00002')").run()).rejects.toThrow(/UNIQUE/)
    await env.DB.prepare("INSERT INTO users (username, email, aff_code) VALUES ('x3', '', 'aff00003'), ('x4', '', 'aff00004')").run()
  })
})
