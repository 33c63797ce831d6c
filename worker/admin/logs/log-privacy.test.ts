/**
 * Log privacy (security finding 14): user log views hide the channels a request tried, and every
 * view redacts key-like strings from the log text.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'

describe('log privacy', () => {
  it('hides tried channel ids from users and redacts keys for everyone', async () => {
    const root = await setupRoot()
    const { client, id } = await signedInUser('privacyuser')
    await env.DB.prepare(`INSERT INTO logs (user_id, username, created_at, type, content, channel_id, metadata) VALUES (?, 'privacyuser', ?, 5, ?, 7, ?)`)
      .bind(id, Math.floor(Date.now() / 1000), 'Incorrect API key provided: sk-proj-abcdef123456XYZ', JSON.stringify({ tried: [7, 9], attempts: 2, status: 401 }))
      .run()
    const mine = (await client.get('/api/log/self?type=5')).body.data.data[0]
    expect(mine.metadata).toEqual({ attempts: 2, status: 401 })
    expect(mine.channel_id).toBeUndefined()
    expect(mine.content).toBe('Incorrect API key provided: sk-[redacted]')
    const csv = await (await client.raw('GET', '/api/log/self/export?type=5')).text()
    expect(csv).not.toContain('abcdef123456XYZ')

    const seen = (await root.get('/api/log/?type=5')).body.data.data[0]
    expect(seen.metadata.tried).toEqual([7, 9])
    expect(seen.channel_id).toBe(7)
    expect(seen.content).not.toContain('abcdef123456XYZ')
  })
})
