/**
 * The dashboards read the statistics rollup, so deleting raw log rows (retention keeping the table
 * under its budget, which on a busy gateway reaches into yesterday and today) changes no chart and
 * no sum — also after the cron recounts the recent days from what is left of their logs.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { setupRoot, signedInUser } from '../test/client'
import { createToken, ledger, topUp, wallet } from '../test/factories'
import { nowSeconds } from '../lib/time'
import { rollupRecent } from './rollup'

describe('statistics rollup after raw log rows leave D1', () => {
  it('keeps the user dashboard and the admin analytics unchanged', async () => {
    const root = await setupRoot()
    const { client, id: userId } = await signedInUser('rollup-user')
    await topUp(userId, 1_000_000)
    const token = await createToken(userId, { unlimited: true })
    const now = nowSeconds()
    const calls = [
      { at: now - 10 * 86400, model: 'gpt-4o', quota: 500 },
      { at: now - 86400, model: 'gpt-4o', quota: 70 },
      { at: now - 86400, model: 'claude', quota: 30 },
      { at: now, model: 'gpt-4o', quota: 9 },
      { at: now, model: 'gpt-4o', quota: 11 },
    ]
    for (const [i, c] of calls.entries()) {
      const log = { type: 2, createdAt: c.at, tokenId: token.id, modelName: c.model, channelId: 1, promptTokens: 10, completionTokens: 5, requestId: `r${i}` }
      expect((await wallet(userId).settle({ userId, reqId: `r${i}`, quota: c.quota, log })).ok).toBe(true)
    }
    expect(await ledger(userId)).toMatchObject({ consumeLogs: calls.length, loggedQuota: 620 })
    await rollupRecent(env)
    const range = `start_timestamp=${now - 14 * 86400}&end_timestamp=${now}`
    const read = async () => ({
      dashboard: (await client.get(`/api/user/dashboard?${range}`)).body.data,
      period: (await root.get(`/api/analytics/period?${range}`)).body.data,
    })
    const before = await read()
    expect(before.dashboard.today).toEqual({ request_count: 2, quota: 20, tokens: 30 })
    expect(before.dashboard.rows.reduce((s: number, r: { quota: number }) => s + r.quota, 0)).toBe(620)
    expect(before.period.top_users[0]).toMatchObject({ user_id: userId, request_count: 5, quota: 620 })

    // Retention takes every raw row, today's and yesterday's included; the cron then recounts those days.
    await env.DB.prepare('DELETE FROM logs WHERE user_id = ?').bind(userId).run()
    await rollupRecent(env)
    expect(await read()).toEqual(before)

    // A call after the deletion adds to the figures, and the next recount (one raw row left) keeps them.
    const late = { type: 2, createdAt: now, tokenId: token.id, modelName: 'gpt-4o', channelId: 1, requestId: 'late' }
    await wallet(userId).settle({ userId, reqId: 'late', quota: 4, log: late })
    await ledger(userId)
    await rollupRecent(env)
    expect((await read()).dashboard.today).toEqual({ request_count: 3, quota: 24, tokens: 30 })
  })
})
