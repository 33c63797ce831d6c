/**
 * The wallet's write-behind: thousands of settled requests reach D1 with the user's totals equal
 * to the sum of the log rows, and the alarm keeps flushing every batch window even while other
 * requests hold reservations (it must never be postponed to a reservation's expiry); a busy wallet
 * writes as soon as a batch's worth of rows waits instead of at the end of the window.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, wallet } from '../test/factories'

describe('wallet write-behind', () => {
  it('drains 2 000 settled requests into D1 with totals equal to the log rows', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    const channels = await Promise.all([1, 2, 3].map((i) => createChannel({ key: `sk-wallet-${i}`, name: `wallet-${i}` })))
    const now = Math.floor(Date.now() / 1000)
    const n = 2000
    for (let start = 0; start < n; start += 200) {
      await Promise.all(
        Array.from({ length: 200 }, (_, k) => {
          const i = start + k
          return stub.settle({
            userId: user.id,
            reqId: `backlog-${i}`,
            quota: 7,
            channelId: channels[i % 3]!,
            log: { type: 2, createdAt: now, tokenId: token.id, modelName: `model-${i % 4}`, promptTokens: 3, completionTokens: 4, requestId: `backlog-${i}` },
          })
        })
      )
    }
    // Requests settled while consume logging is off still get a bare money row and count toward their channel.
    for (let i = 0; i < 10; i++) await stub.settle({ userId: user.id, reqId: `unlogged-${i}`, quota: 3, channelId: channels[0]! })
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(n + 10)
    expect(l.loggedQuota).toBe(7 * n + 30)
    expect(l.used_quota).toBe(7 * n + 30)
    expect(l.request_count).toBe(n + 10)
    expect(l.quota).toBe(10_000_000 - 7 * n - 30)
    const used = await env.DB.prepare(`SELECT id, used_quota FROM channels WHERE id IN (${channels.join(',')}) ORDER BY id`).all<{ id: number; used_quota: number }>()
    const perChannel = channels.map((_, k) => 7 * Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === k).length + (k === 0 ? 30 : 0))
    expect(used.results.map((r) => r.used_quota)).toEqual(perChannel)
    const stats = await env.DB.prepare('SELECT SUM(request_count) AS n, SUM(quota) AS q FROM statistics WHERE user_id = ?').bind(user.id).first<{ n: number; q: number }>()
    expect(stats).toEqual({ n: n + 10, q: 7 * n + 30 })
  })

  it('keeps writing behind every batch window while requests are in flight', async () => {
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    // A long request holds a reservation the whole time (its expiry is an hour away).
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'long-request', amount: 100 })).toEqual({ ok: true, held: 100 })
    const consumeLogs = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<{ n: number }>())!.n
    let settled = 0
    for (const round of [1, 2, 3]) {
      for (let i = 0; i < 20; i++) {
        await stub.settle({ userId: user.id, reqId: `r${round}-${i}`, quota: 5, log: { type: 2, createdAt: Math.floor(Date.now() / 1000), tokenId: token.id, modelName: 'm' } })
        settled++
      }
      // No manual flush: the alarm alone must bring D1 up to date within a few batch windows.
      await expect.poll(consumeLogs, { timeout: 8000, interval: 200 }).toBe(settled)
    }
  })

  it('arms the write-behind a second out for a few rows and at once when 256 wait', async () => {
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    const settle = (reqId: string) =>
      stub.settle({ userId: user.id, reqId, quota: 1, log: { type: 2, createdAt: Math.floor(Date.now() / 1000), tokenId: token.id, modelName: 'm' } })
    // Every alarm time the wallet asks for, as a delay from the moment it asked.
    const delays: number[] = []
    await runInDurableObject(stub, (instance) => {
      const w = instance as unknown as { armAlarm(at: number): Promise<void> }
      const arm = w.armAlarm.bind(w)
      w.armAlarm = (at) => (delays.push(at - Date.now()), arm(at))
    })
    // The clock may tick a millisecond between the wallet's reading and this one (seen in CI: 999).
    await settle('few-0')
    expect(delays).toHaveLength(1)
    expect(delays[0]).toBeGreaterThanOrEqual(990)
    expect(delays[0]).toBeLessThanOrEqual(1000)
    await Promise.all(Array.from({ length: 260 }, (_, i) => settle(`many-${i}`)))
    expect(delays.filter((d) => d <= 0).length).toBeGreaterThan(0)
    // Otherwise about a batch window (1 s) out, or a retry backoff (2 s, 4 s…) if a flush met a busy D1.
    expect(delays.filter((d) => d > 0 && d < 990)).toEqual([])
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(261)
    expect(l.loggedQuota).toBe(261)
  })

  it('resumes the pending-log numbering after a restart without overwriting waiting rows', async () => {
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    const settle = (reqId: string) =>
      stub.settle({ userId: user.id, reqId, quota: 2, log: { type: 2, createdAt: Math.floor(Date.now() / 1000), tokenId: token.id, modelName: 'm', requestId: reqId } })
    for (let i = 0; i < 5; i++) await settle(`before-${i}`)
    // A fresh instance knows only its storage: forget the in-memory counters.
    await runInDurableObject(stub, (instance) => {
      const state = (instance as unknown as { store: { logSeq?: number; meta?: unknown } }).store
      state.logSeq = undefined
      state.meta = undefined
    })
    for (let i = 0; i < 5; i++) await settle(`after-${i}`)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(10)
    expect(l.loggedQuota).toBe(20)
  })
})
