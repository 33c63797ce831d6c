/** Imported one-api / one-hub users sign in with their bcrypt password, which is then upgraded to PBKDF2. */
import bcrypt from 'bcryptjs'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot } from '../test/client'
import { createUser } from '../test/factories'
import { isBcryptHash } from './legacy-password'

async function login(password: string) {
  const client = new TestClient()
  await client.get('/api/status')
  return client.post('/api/user/login', { username: 'imported1', password })
}

describe('bcrypt passwords from one-api / one-hub', () => {
  it('are accepted at sign-in and replaced by a PBKDF2 hash after the first success', async () => {
    await setupRoot()
    const user = await createUser({ username: 'imported1' })
    // Go's bcrypt writes $2a$.
    const legacy = bcrypt.hashSync('old-password-1', 4).replace(/^\$2b\$/, '$2a$')
    expect(isBcryptHash(legacy)).toBe(true)
    await env.DB.prepare('UPDATE users SET password = ? WHERE id = ?').bind(legacy, user.id).run()

    const wrong = await login('not-it-1')
    expect(wrong.status).toBe(401)
    const stillLegacy = await env.DB.prepare('SELECT password FROM users WHERE id = ?').bind(user.id).first<{ password: string }>()
    expect(stillLegacy!.password).toBe(legacy)

    const ok = await login('old-password-1')
    expect(ok.status).toBe(200)
    const upgraded = await env.DB.prepare('SELECT password FROM users WHERE id = ?').bind(user.id).first<{ password: string }>()
    expect(upgraded!.password).toMatch(/^pbkdf2_sha256\$/)

    const again = await login('old-password-1')
    expect(again.status).toBe(200)
  })

  it('are accepted as the current password when changing it (an imported user signed in another way)', async () => {
    await setupRoot()
    const user = await createUser({ username: 'imported1' })
    const legacy = bcrypt.hashSync('old-password-1', 4)
    await env.DB.prepare('UPDATE users SET password = ? WHERE id = ?').bind(legacy, user.id).run()
    const client = new TestClient()
    await client.get('/api/status')
    expect((await client.post('/api/user/login', { username: 'imported1', password: 'old-password-1' })).status).toBe(200)
    // As if the user had signed in with OAuth: the stored hash is still the imported one.
    await env.DB.prepare('UPDATE users SET password = ? WHERE id = ?').bind(legacy, user.id).run()
    expect((await client.put('/api/user/self', { password: 'new-password-2', original_password: 'wrong-one-1' })).status).toBe(400)
    expect((await client.put('/api/user/self', { password: 'new-password-2', original_password: 'old-password-1' })).status).toBe(200)
    expect((await login('new-password-2')).status).toBe(200)
  })
})
