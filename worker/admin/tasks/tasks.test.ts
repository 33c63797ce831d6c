/** Console task lists: users see their own rows, admins every row with channel/user filters, upstream ids only for admins. */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { setupRoot, signedInUser } from '../../test/client'

async function mjRow(userId: number, fields: { status: string; channel?: number; action?: string; submit?: number }) {
  await env.DB.prepare(
    `INSERT INTO midjourneys (user_id, action, mj_id, prompt, status, progress, channel_id, submit_time, quota, image_url) VALUES (?, ?, ?, 'a cat', ?, ?, ?, ?, 50000, ?)`
  )
    .bind(
      userId,
      fields.action ?? 'IMAGINE',
      `up-${Math.random()}`,
      fields.status,
      fields.status === 'SUCCESS' || fields.status === 'FAILURE' ? '100%' : '50%',
      fields.channel ?? 1,
      fields.submit ?? Date.now(),
      fields.status === 'SUCCESS' ? 'https://cdn.example/x.png' : ''
    )
    .run()
}

describe('task lists', () => {
  it('midjourney: own rows for users, all for admins, filters by status/channel/user/time', async () => {
    const root = await setupRoot()
    const alice = await signedInUser('alice')
    const bob = await signedInUser('bob')
    // Submit times in ms; the unfinished row is recent (older than an hour it would time out when listed).
    const now = Date.now()
    await mjRow(alice.id, { status: 'SUCCESS', channel: 1, submit: now - 3_000 })
    await mjRow(alice.id, { status: 'FAILURE', channel: 2, submit: now - 2_000 })
    await mjRow(bob.id, { status: 'IN_PROGRESS', channel: 2, submit: now - 1_000 })

    const own = await alice.client.get('/api/mj/self')
    expect(own.status).toBe(200)
    expect(own.body.data.total_count).toBe(2)
    expect(own.body.data.data[0]).not.toHaveProperty('mj_id')
    expect(own.body.data.data[0]).not.toHaveProperty('channel_id')
    expect((await alice.client.get('/api/mj/self?status=FAILURE')).body.data.data).toHaveLength(1)
    expect((await alice.client.get('/api/mj/')).status).toBe(403)

    const all = await root.get('/api/mj/')
    expect(all.body.data.total_count).toBe(3)
    expect(all.body.data.data[0]).toMatchObject({ username: 'bob', channel_id: 2, status: 'IN_PROGRESS' })
    expect(all.body.data.data[0].mj_id).toMatch(/^up-/)
    expect((await root.get('/api/mj/?channel_id=2')).body.data.total_count).toBe(2)
    expect((await root.get('/api/mj/?username=alice')).body.data.total_count).toBe(2)
    expect((await root.get(`/api/mj/?start_timestamp=${now - 2_500}&end_timestamp=${now - 1_500}`)).body.data.total_count).toBe(1)
    expect((await root.get('/api/mj/?page_size=1000')).status).toBe(400)
  })

  it('listing fails and refunds an unfinished task past the 1 h timeout (its channel is gone)', async () => {
    const root = await setupRoot()
    const dave = await signedInUser('dave')
    await mjRow(dave.id, { status: 'IN_PROGRESS', channel: 99, submit: Date.now() - 2 * 3600_000 })
    const row = (await dave.client.get('/api/mj/self')).body.data.data[0]
    expect(row).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: expect.stringContaining('timed out') })
    const refund = await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 4 AND content LIKE '%refunded 50000%'").bind(dave.id).first('n')
    expect(refund).toBe(1)
    expect((await root.get('/api/mj/?username=dave')).body.data.data[0].status).toBe('FAILURE')
  })

  it('tasks: Suno rows with their data, user_id scrubbed, filtered by platform and action', async () => {
    const root = await setupRoot()
    const carol = await signedInUser('carol')
    const song = JSON.stringify([{ id: 's1', audio_url: 'https://cdn1.suno.ai/a.mp3', title: 'Song', user_id: 'secret-upstream-user' }])
    await env.DB.prepare(
      `INSERT INTO tasks (task_id, platform, user_id, channel_id, quota, action, status, progress, submit_time, data) VALUES ('up-1', 'suno', ?, 3, 50000, 'MUSIC', 'SUCCESS', '100%', 100, ?),
       ('up-2', 'suno', ?, 3, 5000, 'LYRICS', 'FAILURE', '100%', 200, '')`
    )
      .bind(carol.id, song, carol.id)
      .run()
    const own = await carol.client.get('/api/task/self?action=music')
    expect(own.body.data.total_count).toBe(1)
    expect(own.body.data.data[0].data[0]).toEqual({ id: 's1', audio_url: 'https://cdn1.suno.ai/a.mp3', title: 'Song' })
    expect(own.body.data.data[0]).not.toHaveProperty('task_id')
    const all = await root.get('/api/task/?platform=suno&status=FAILURE')
    expect(all.body.data.data).toHaveLength(1)
    expect(all.body.data.data[0]).toMatchObject({ username: 'carol', task_id: 'up-2', action: 'LYRICS' })
  })
})
