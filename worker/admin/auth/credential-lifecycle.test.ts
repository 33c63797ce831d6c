/**
 * Credential lifecycle (security finding 10): a password change, reset or admin-set password
 * revokes the personal access token, every session and every outstanding reset link; only the
 * newest reset link works; an account without a password cannot get one through an access token.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { consumeResetToken, issueResetToken } from '../../mail/password-reset'

const asToken = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })
const script = new TestClient()
const selfWith = async (token: string) => (await script.call('GET', '/api/user/self', asToken(token))).status

async function userWithToken(name: string) {
  const { client, id } = await signedInUser(name)
  const token = (await client.get('/api/user/token')).body.data as string
  expect(await selfWith(token)).toBe(200)
  return { client, id, token }
}

describe('credential lifecycle', () => {
  it('a self password change revokes the access token and other sessions, keeping this browser signed in', async () => {
    await setupRoot()
    const { client, token } = await userWithToken('changer')
    const other = new TestClient()
    await other.get('/api/status')
    expect((await other.post('/api/user/login', { username: 'changer', password: 'user-password-1' })).status).toBe(200)
    const changed = await client.put('/api/user/self', { password: 'new-password-2', original_password: 'user-password-1' })
    expect(changed.status).toBe(200)
    expect(await selfWith(token)).toBe(401)
    expect((await other.get('/api/user/self')).status).toBe(401)
    expect((await client.get('/api/user/self')).status).toBe(200)
  })

  it('a reset by link revokes the access token and sessions; only the newest link works, and none after a password change', async () => {
    const root = await setupRoot()
    const { client, id, token } = await userWithToken('resetter')
    const email = 'resetter@example.com'
    await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, id).run()

    const older = await issueResetToken(env, id, email)
    const newer = await issueResetToken(env, id, email)
    expect(await consumeResetToken(env, email, older)).toBeUndefined()
    const anon = new TestClient()
    await anon.get('/api/status')
    expect((await anon.post('/api/user/reset', { email, token: newer })).status).toBe(200)
    expect(await selfWith(token)).toBe(401)
    expect((await client.get('/api/user/self')).status).toBe(401)

    // A link issued before a password change dies with the change.
    const pending = await issueResetToken(env, id, email)
    expect((await root.put('/api/user/', { id, username: 'resetter', group: 'default', password: 'admin-set-pass-3' })).status).toBe(200)
    expect(await consumeResetToken(env, email, pending)).toBeUndefined()
  })

  it('an admin-set password revokes the access token', async () => {
    const root = await setupRoot()
    const { id, token } = await userWithToken('adminset')
    expect((await root.put('/api/user/', { id, username: 'adminset', group: 'default', password: 'admin-set-pass-1' })).status).toBe(200)
    expect(await selfWith(token)).toBe(401)
  })

  it('refuses to set a first password through an access token', async () => {
    await setupRoot()
    const { client, id, token } = await userWithToken('oauthonly')
    await env.DB.prepare("UPDATE users SET password = '' WHERE id = ?").bind(id).run()
    const viaToken = await script.call('PUT', '/api/user/self', { ...asToken(token), body: { password: 'stolen-pass-1' } })
    expect(viaToken.status).toBe(403)
    expect((await client.put('/api/user/self', { password: 'my-own-pass-1' })).status).toBe(200)
  })
})
