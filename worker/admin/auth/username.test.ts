/** Usernames: sign-in takes a username or an email, so a username may never contain @. */
import { describe, expect, it } from 'vitest'
import { setupRoot, TestClient } from '../../test/client'
import { username } from './auth.schema'

describe('usernames', () => {
  it('refuses @ (and the other characters) and accepts a plain name', async () => {
    for (const bad of ['root@example.com', 'a b c', 'x<y', 'ab']) expect(username.safeParse(bad).success).toBe(false)
    expect(username.safeParse('plain_name-1').success).toBe(true)
    await setupRoot()
    const anon = new TestClient()
    await anon.get('/api/status')
    const res = await anon.post('/api/user/register', { username: 'victim@example.com', password: 'password-123' })
    expect(res.status).toBe(400)
    expect(res.body.data.fields.username).toMatch(/@/)
  })
})
