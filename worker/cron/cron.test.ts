import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { cacheKeys } from '../cache/keys'
import { DAILY_CRON, FREQUENT_CRON } from '.'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

async function fire(cron: string, scheduledTime = Date.now()) {
  const ctx = createExecutionContext()
  await worker.scheduled(createScheduledController({ cron, scheduledTime }), env, ctx)
  await waitOnExecutionContext(ctx)
}

describe('cron jobs', () => {
  it('rolls logs up per day × user × channel × model, and the totals survive log retention', async () => {
    await setPrice('gpt-4o', 2, 4)
    const channel = await createChannel({ key: 'good' })
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id)
    for (let i = 0; i < 3; i++) await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    const l = await ledger(user.id)
    // Two old rows from ten days ago, rolled up on their day.
    const old = Math.floor(Date.now() / 1000) - 10 * 86400
    await env.DB.prepare(
      'INSERT INTO logs (user_id, created_at, type, model_name, channel_id, quota, prompt_tokens, completion_tokens) VALUES (?, ?, 2, ?, ?, 100, 10, 5), (?, ?, 2, ?, ?, 50, 4, 2)'
    )
      .bind(user.id, old, 'gpt-4o', channel, user.id, old + 60, 'gpt-4o', channel)
      .run()
    await fire(FREQUENT_CRON)
    const today = await env.DB.prepare('SELECT * FROM statistics WHERE date = ?').bind(new Date().toISOString().slice(0, 10)).first<any>()
    expect(today).toMatchObject({ user_id: user.id, channel_id: channel, model_name: 'gpt-4o', request_count: 3, quota: l.loggedQuota, prompt_tokens: 36, completion_tokens: 21 })
    const oldDate = new Date(old * 1000).toISOString().slice(0, 10)
    await fire(DAILY_CRON, old * 1000 + 3600_000)
    await setOptions({ LogCleanupDays: '7' })
    // Retention runs hourly from the five-minute trigger: make it due again (the first fire above ran it).
    await env.CACHE.delete(cacheKeys.cronLastRun('log-retention'))
    await fire(FREQUENT_CRON)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?')
        .bind(old + 3600)
        .first('n')
    ).toBe(0)
    const kept = await env.DB.prepare('SELECT request_count, quota FROM statistics WHERE date = ?').bind(oldDate).first<any>()
    expect(kept).toEqual({ request_count: 2, quota: 150 })
    // The two old rows went to the archive, not just away.
    expect(await env.DB.prepare('SELECT SUM(rows) AS n FROM log_archives').first('n')).toBe(2)
    // Rerunning the rollup of today is idempotent; retention is not due again within the hour.
    await env.DB.prepare('INSERT INTO logs (user_id, created_at, type) VALUES (?, ?, 2)').bind(user.id, old).run()
    await fire(FREQUENT_CRON)
    expect(await env.DB.prepare('SELECT SUM(request_count) AS n FROM statistics').first('n')).toBe(5)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?')
        .bind(old + 3600)
        .first('n')
    ).toBe(1)
  })

  it('runs scheduled channel tests when due and disables slow or broken channels', async () => {
    await setOptions({ ChannelTestFrequency: '10', AutomaticDisableChannelEnabled: 'true' })
    const good = await createChannel({ key: 'good' })
    const bad = await createChannel({ key: 'mock-401' })
    await env.DB.prepare("UPDATE channels SET test_model = 'gpt-4o'").run()
    await fire(FREQUENT_CRON)
    const rows = await env.DB.prepare('SELECT id, status, test_time FROM channels ORDER BY id').all<any>()
    expect(rows.results.find((r: any) => r.id === good)).toMatchObject({ status: 1 })
    expect(rows.results.find((r: any) => r.id === bad)).toMatchObject({ status: 3 })
    expect(rows.results.every((r: any) => r.test_time > 0)).toBe(true)
    // Not due again within the frequency window.
    const before = upstream.calls.length
    await fire(FREQUENT_CRON)
    expect(upstream.calls.length).toBe(before)
  })

  it('ends subscriptions past their expiry and restores the group their plan moved the user from', async () => {
    const user = await createUser({ group: 'default' })
    const now = Date.now()
    const insert = (key: string, expiresAt: number) =>
      env.DB.prepare(
        `INSERT INTO subscriptions (user_id, plan_id, terms, status, source, key, starts_at, expires_at, previous_group) VALUES (?, 1, ?, 1, 'grant', ?, ?, ?, 'default')`
      )
        .bind(
          user.id,
          JSON.stringify({ name: 'P', windows: [], models: [], group: 'vip', channel_tags: [], allow_balance_fallback: true, priority: 0 }),
          key,
          now - 1000,
          expiresAt
        )
        .run()
    await insert('past', now - 1)
    await insert('forever', 0)
    await env.DB.prepare('UPDATE users SET "group" = \'vip\' WHERE id = ?').bind(user.id).run()
    await fire(FREQUENT_CRON)
    const rows = await env.DB.prepare('SELECT key, status FROM subscriptions ORDER BY id').all()
    expect(rows.results).toEqual([
      { key: 'past', status: 2 },
      { key: 'forever', status: 1 },
    ])
    // The never-expiring one still holds the vip group.
    expect(await env.DB.prepare('SELECT "group" AS g FROM users WHERE id = ?').bind(user.id).first('g')).toBe('vip')
  })
})
