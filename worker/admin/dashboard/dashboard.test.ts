import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { createChannel, createToken, ledger, send, setPrice, topUp, wallet } from '../../test/factories'
import { nowSeconds } from '../../lib/time'
import { rollupRecent } from '../../logs/rollup'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

describe('dashboard and analytics', () => {
  it('shows a user the calls they just made (statistics kept current by the wallet flush)', async () => {
    const root = await setupRoot()
    await setPrice('gpt-4o', 2, 4)
    await createChannel({ key: 'good' })
    const { client, id } = await signedInUser('dashuser')
    await root.post(`/api/user/quota/${id}`, { quota: 1_000_000 })
    const key = (await client.post('/api/token/', { name: 'k', unlimited_quota: true })).body.data.key
    for (let i = 0; i < 3; i++) await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    const l = await ledger(id)
    const d = (await client.get('/api/user/dashboard')).body.data
    expect(d.balance).toEqual({ quota: l.quota, used_quota: l.used_quota, request_count: 3 })
    expect(d.today).toEqual({ request_count: 3, quota: l.loggedQuota, tokens: 3 * 19 })
    expect(d.rows).toHaveLength(1)
    expect(d.rows[0]).toMatchObject({ model_name: 'gpt-4o', request_count: 3, quota: l.loggedQuota })
    expect(d.models).toEqual(['gpt-4o', 'gpt-4o-mini'])
    // The statistics equal the sums over the logs of the same day.
    const sums = await env.DB.prepare('SELECT COUNT(*) AS n, SUM(quota) AS q FROM logs WHERE type = 2 AND user_id = ?').bind(id).first<any>()
    expect(d.today.request_count).toBe(sums.n)
    expect(d.today.quota).toBe(sums.q)
  })

  it('gives admins totals, registrations split direct vs invited, channel counts and top lists', async () => {
    const root = await setupRoot()
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const disabled = await createChannel({ key: 'off' })
    await env.DB.prepare('UPDATE channels SET status = 3 WHERE id = ?').bind(disabled).run()
    const { client: inviter, id } = await signedInUser('topuser')
    const aff = (await inviter.get('/api/user/aff')).body.data
    await signedInUser('direct1')
    const { TestClient } = await import('../../test/client')
    const invitee = new TestClient()
    await invitee.get('/api/status')
    await invitee.post('/api/user/register', { username: 'invited1', password: 'password-1', aff_code: aff })
    await root.post(`/api/user/quota/${id}`, { quota: 100_000 })
    const key = (await inviter.post('/api/token/', { name: 'k', unlimited_quota: true })).body.data.key
    await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    await ledger(id)
    const stats = (await root.get('/api/analytics/statistics')).body.data
    expect(stats).toMatchObject({ user_count: 4, invited_count: 1, channels: { enabled: 1, auto_disabled: 1, disabled: 0, test_disabled: 0 } })
    const period = (await root.get('/api/analytics/period')).body.data
    const reg = period.registrations.reduce((s: any, r: any) => ({ direct: s.direct + r.direct, invited: s.invited + r.invited }), { direct: 0, invited: 0 })
    expect(reg).toEqual({ direct: 3, invited: 1 })
    expect(period.top_users[0]).toMatchObject({ username: 'topuser', request_count: 1 })
    expect(period.top_models[0]).toMatchObject({ model_name: 'gpt-4o', request_count: 1 })
    expect((await inviter.get('/api/analytics/statistics')).status).toBe(403)
    expect((await root.get('/api/analytics/period?start_timestamp=100&end_timestamp=50')).status).toBe(400)
  })

  it('reads day × model and day × user sums that follow every write to the statistics rollup', async () => {
    const root = await setupRoot()
    const now = nowSeconds()
    for (const [u, name] of [
      [0, 'sums-a'],
      [1, 'sums-b'],
    ] as const) {
      const { id } = await signedInUser(name)
      await topUp(id, 1_000_000)
      const token = await createToken(id)
      for (let i = 0; i < 6; i++) {
        const log = {
          type: 2,
          createdAt: now - (i % 3) * 86400,
          tokenId: token.id,
          modelName: ['m1', 'm2', 'm3'][(i + u) % 3],
          channelId: 1 + (i % 2),
          promptTokens: 100 * i,
          completionTokens: i,
          metadata: { cached_tokens: 10 * i, ...(i % 2 ? { cache_hit: true, saved_quota: 5 * i + u } : {}) },
          requestId: `${name}-${i}`,
        }
        await wallet(id).settle({ userId: id, reqId: `${name}-${i}`, quota: 10 + 7 * i + u, log })
      }
      await ledger(id)
    }
    // The cron recount (raises cached tokens), then an import rewriting a day (delete + insert).
    await rollupRecent(env)
    const day = new Date((now - 2 * 86400) * 1000).toISOString().slice(0, 10)
    const kept = await env.DB.prepare('SELECT * FROM statistics WHERE date = ? AND quota > 20').bind(day).all<Record<string, unknown>>()
    expect(kept.results.length).toBeGreaterThan(0)
    await env.DB.batch([
      env.DB.prepare('DELETE FROM statistics WHERE date = ?').bind(day),
      ...kept.results.map((r) =>
        env.DB.prepare(
          `INSERT INTO statistics (${Object.keys(r).join(', ')}) VALUES (${Object.keys(r)
            .map(() => '?')
            .join(', ')})`
        ).bind(...Object.values(r))
      ),
    ])
    const from = new Date((now - 7 * 86400) * 1000).toISOString().slice(0, 10)
    const all = <T>(sql: string) =>
      env.DB.prepare(sql)
        .bind(from)
        .all<T>()
        .then((r) => r.results)
    const period = (await root.get(`/api/analytics/period?start_timestamp=${now - 7 * 86400}&end_timestamp=${now}`)).body.data
    // What the same charts give when computed from every day × user × channel × model row.
    expect(period.daily).toEqual(
      await all(`SELECT date, SUM(request_count) AS request_count, SUM(quota) AS quota, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens,
                 SUM(request_time) AS request_time, SUM(saved_quota) AS saved_quota FROM statistics WHERE date >= ? GROUP BY date ORDER BY date`)
    )
    expect(period.top_models).toEqual(
      await all(`SELECT model_name, SUM(request_count) AS request_count, SUM(quota) AS quota, SUM(prompt_tokens + completion_tokens) AS tokens
                 FROM statistics WHERE date >= ? GROUP BY model_name ORDER BY quota DESC`)
    )
    expect(period.top_users).toEqual(
      await all(`SELECT s.user_id, u.username, SUM(s.request_count) AS request_count, SUM(s.quota) AS quota FROM statistics s
                 LEFT JOIN users u ON u.id = s.user_id WHERE s.date >= ? GROUP BY s.user_id ORDER BY quota DESC`)
    )
    expect(period.cache_hits).toEqual(
      await all(`SELECT model_name, SUM(prompt_tokens) AS prompt_tokens, SUM(cached_tokens) AS cached_tokens FROM statistics
                 WHERE date >= ? GROUP BY model_name HAVING SUM(prompt_tokens) > 0 ORDER BY prompt_tokens DESC`)
    )
    expect(period.top_users.map((u: { username: string }) => u.username).sort()).toEqual(['sums-a', 'sums-b'])
    // The response cache's savings reached the rollup (write-behind and recount alike): 5·(1+3+5)+3·u per user.
    expect(period.daily.reduce((s: number, d: { saved_quota: number }) => s + d.saved_quota, 0)).toBe(45 + 48)
    expect(period.cache_hits.reduce((n: number, r: { cached_tokens: number }) => n + r.cached_tokens, 0)).toBeGreaterThan(0)
  })
})
