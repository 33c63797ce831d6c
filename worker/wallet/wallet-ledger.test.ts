/**
 * The wallet's money invariants: a D1 flush that commits but loses its acknowledgement (and one
 * interrupted by a restart) writes every log row exactly once; amounts that are not safe integers
 * are refused; a broken stored balance heals from D1; credits apply once per idempotency key; a
 * settle after expiry charges only the difference; credit leases hold, spend, expire and revoke
 * without losing a unit; and random interleavings of reserve / settle / refund / credit / lease /
 * spend / expire / restart / flush keep Σ log quota equal to the balance change.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, ledger, wallet } from '../test/factories'
import type { UserWallet } from './user-wallet'
import { WalletStore } from './wallet-store'

type Stub = ReturnType<typeof wallet>
const now = () => Math.floor(Date.now() / 1000)
const consumeLog = (reqId: string, tokenId: number) => ({ type: 2, createdAt: now(), tokenId, modelName: 'm', requestId: reqId })

/** A restart: a fresh instance knows only its storage (new state store, no flush or alarm in memory). */
async function restart(stub: Stub) {
  await runInDurableObject(stub, (instance: UserWallet) => {
    const s = instance as unknown as { store: WalletStore; ctx: DurableObjectState; env: Env; flushing?: unknown; alarmAt?: unknown }
    s.store = new WalletStore(s.ctx.storage.kv, () => s.env.DB)
    s.flushing = undefined
    s.alarmAt = undefined
  })
}

/** Make the object's next D1 batch commit and then fail, as a lost acknowledgement would. */
async function loseNextAck(stub: Stub) {
  await runInDurableObject(stub, (instance: UserWallet) => {
    const s = instance as unknown as { env: Env }
    const real = s.env.DB
    const db = Object.create(real) as D1Database
    db.prepare = (q: string) => real.prepare(q)
    db.batch = async (stmts) => {
      await real.batch(stmts)
      s.env = { ...s.env, DB: real }
      throw new Error('D1_ERROR: Network connection lost.')
    }
    s.env = { ...s.env, DB: db }
  })
}

async function logRows(userId: number) {
  const r = await env.DB.prepare('SELECT request_id, type, quota, metadata FROM logs WHERE user_id = ? ORDER BY id')
    .bind(userId)
    .all<{ request_id: string; type: number; quota: number; metadata: string | null }>()
  return r.results
}

describe('exactly-once write-behind', () => {
  it('a flush that commits but loses its acknowledgement is replayed, not rebuilt: every row once', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    for (let i = 0; i < 3; i++) await stub.settle({ userId: user.id, reqId: `a${i}`, quota: 5, log: consumeLog(`a${i}`, token.id) })
    await loseNextAck(stub)
    expect(await stub.flush()).toEqual({ ok: false, error: expect.stringMatching(/Network connection lost/) })
    // More requests settle before the retry: the old code rebuilt a larger plan under the same
    // number, found the marker, and deleted these rows unwritten.
    for (let i = 0; i < 2; i++) await stub.settle({ userId: user.id, reqId: `b${i}`, quota: 5, log: consumeLog(`b${i}`, token.id) })
    const l = await ledger(user.id)
    expect((await logRows(user.id)).map((r) => r.request_id).sort()).toEqual(['a0', 'a1', 'a2', 'b0', 'b1'])
    expect(l).toMatchObject({ quota: 975, used_quota: 25, request_count: 5, consumeLogs: 5, loggedQuota: 25 })
  })

  it('a restart between the D1 commit and its acknowledgement loses and repeats nothing', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    for (let i = 0; i < 4; i++) await stub.settle({ userId: user.id, reqId: `a${i}`, quota: 7, log: consumeLog(`a${i}`, token.id) })
    await loseNextAck(stub)
    expect((await stub.flush()).ok).toBe(false)
    await restart(stub)
    await stub.settle({ userId: user.id, reqId: 'after', quota: 7, log: consumeLog('after', token.id) })
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 965, used_quota: 35, request_count: 5, consumeLogs: 5, loggedQuota: 35 })
    expect(await logRows(user.id)).toHaveLength(5)
  })
})

describe('only money reaches the balance', () => {
  it('refuses amounts that are not safe integers in range (with an error result) and stores nothing', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    const refused = { ok: false, reason: 'invalid_amount' }
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1, 1.5, 2 ** 53, '5' as unknown as number]) {
      expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: `r${bad}`, amount: bad })).toEqual(refused)
      expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: `f${bad}`, amount: 10, floor: bad })).toEqual(refused)
      expect(await stub.settle({ userId: user.id, reqId: `s${bad}`, quota: bad })).toEqual(refused)
    }
    for (const bad of [Number.NaN, Number.NEGATIVE_INFINITY, 0.5]) {
      expect(await stub.credit({ userId: user.id, amount: bad, key: `k${bad}`, log: { type: 1, createdAt: now() } })).toEqual(refused)
    }
    expect(await stub.credit({ userId: user.id, amount: Number.MAX_SAFE_INTEGER, key: 'overflow', log: { type: 1, createdAt: now() } })).toEqual(refused)
    expect(await ledger(user.id)).toMatchObject({ quota: 1000, used_quota: 0, request_count: 0 })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
  })

  it('a stored balance that is not money heals from the last value flushed to D1', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await stub.settle({ userId: user.id, reqId: 'x', quota: 10, log: consumeLog('x', token.id) })
    await stub.flush()
    await runInDurableObject(stub, (instance: UserWallet) => {
      const s = instance as unknown as { store: WalletStore; ctx: DurableObjectState }
      s.ctx.storage.kv.put('user', { ...s.store.user, quota: Number.NaN })
    })
    await restart(stub)
    await stub.settle({ userId: user.id, reqId: 'y', quota: 10, log: consumeLog('y', token.id) })
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 980, consumeLogs: 2, loggedQuota: 20 })
  })
})

describe('credits and expiry', () => {
  it('a credit applies once per idempotency key', async () => {
    const user = await createUser({ quota: 0 })
    const stub = wallet(user.id)
    const credit = () => stub.credit({ userId: user.id, amount: 500, key: 'order-1', log: { type: 1, createdAt: now(), content: 'top-up' } })
    const results = await Promise.all([credit(), credit(), credit()])
    expect(results.filter((r) => r.ok && !r.duplicate)).toHaveLength(1)
    const rows = await logRows(user.id)
    expect(rows).toHaveLength(1)
    expect((await ledger(user.id)).quota).toBe(500)
  })

  it('a settle after the hold expired charges only the difference; a refund gives the expiry charge back', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    for (const id of ['late', 'failed']) expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: id, amount: 100 })).toEqual({ ok: true, held: 100 })
    await runInDurableObject(stub, (instance: UserWallet) => {
      const s = instance as unknown as { store: WalletStore }
      for (const r of s.store.holds().values()) r.at = 0
    })
    await runDurableObjectAlarm(stub)
    expect((await stub.balance({ userId: user.id }))!.quota).toBe(800)
    await stub.settle({ userId: user.id, reqId: 'late', quota: 30, log: consumeLog('late', token.id) })
    await stub.refund({ userId: user.id, reqId: 'failed', log: { type: 5, createdAt: now(), requestId: 'failed' } })
    const l = await ledger(user.id)
    expect(l.quota).toBe(970)
    const rows = await logRows(user.id)
    expect(rows.reduce((s, r) => s + r.quota, 0)).toBe(30)
    expect(rows.find((r) => r.request_id === 'late' && r.quota === -70)).toBeDefined()
  })
})

describe('credit leases', () => {
  it('hold free balance, charge each reported request in full, shrink, and give the rest back', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    expect(await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:a', amount: 800, floor: 10 })).toEqual({ ok: true, granted: 800, held: 800 })
    // What the lease holds is not free for anyone else.
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'big', amount: 300 })).toEqual({ ok: false, reason: 'insufficient_user_quota' })
    const items = [30, 50].map((quota, i) => ({ reqId: `l${i}`, quota, channelId: 0, log: consumeLog(`l${i}`, token.id) }))
    expect(await stub.settleLease({ userId: user.id, leaseId: 'lease:a', items })).toMatchObject({ ok: true, held: 720, charged: 80, overrun: 0, userQuota: 920 })
    expect(await stub.settleLease({ userId: user.id, leaseId: 'lease:a', items: [], release: true })).toMatchObject({ ok: true, held: 0 })
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 920, used_quota: 80, request_count: 2, consumeLogs: 2, loggedQuota: 80 })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
  })

  it('store a big report in a few storage entries and write every row once, even over a lost acknowledgement', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:big', amount: 10_000, floor: 1 })
    const items = Array.from({ length: 150 }, (_, i) => ({ reqId: `b${i}`, quota: 3, channelId: 0, log: consumeLog(`b${i}`, token.id) }))
    expect(await stub.settleLease({ userId: user.id, leaseId: 'lease:big', items })).toMatchObject({ ok: true, charged: 450 })
    const entries = await runInDurableObject(stub, (_: UserWallet, state) => [...state.storage.kv.list({ prefix: 'L:' })].length)
    expect(entries).toBe(3)
    expect((await stub.balance({ userId: user.id }))!.pendingLogs).toBe(150)
    await loseNextAck(stub)
    expect((await stub.flush()).ok).toBe(false)
    await restart(stub)
    expect(await stub.flush()).toEqual({ ok: true })
    expect(await ledger(user.id)).toMatchObject({ quota: 99_550, used_quota: 450, request_count: 150, consumeLogs: 150, loggedQuota: 450 })
    expect(new Set((await logRows(user.id)).map((r) => r.request_id)).size).toBe(150)
  })

  it('expire when their isolate stops reporting (rest returned, a row says so); a late report is still charged', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:b', amount: 500, floor: 0 })
    await restart(stub)
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(500)
    await runInDurableObject(stub, (instance: UserWallet) => {
      for (const r of (instance as unknown as { store: WalletStore }).store.holds().values()) r.at = 0
    })
    await runDurableObjectAlarm(stub)
    expect((await stub.balance({ userId: user.id }))!).toMatchObject({ quota: 1000, reserved: 0 })
    const late = await stub.settleLease({ userId: user.id, leaseId: 'lease:b', items: [{ reqId: 'late', quota: 40, log: consumeLog('late', token.id) }] })
    expect(late).toMatchObject({ ok: true, held: 0, charged: 40, overrun: 40 })
    const rows = await logRows(user.id)
    expect(rows.find((r) => r.type === 4)).toMatchObject({ quota: 0, request_id: 'lease:b' })
    expect((await ledger(user.id)).quota).toBe(960)
  })

  it('are revoked when the token is disabled: the next report learns it, and every request is still charged', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:c', amount: 600, floor: 0 })
    await env.DB.prepare('UPDATE tokens SET status = 2 WHERE id = ?').bind(token.id).run()
    await stub.syncToken({ userId: user.id, tokenId: token.id })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
    const r = await stub.settleLease({ userId: user.id, leaseId: 'lease:c', items: [{ reqId: 'inflight', quota: 25, log: consumeLog('inflight', token.id) }], extend: 100 })
    expect(r).toMatchObject({ ok: true, held: 0, charged: 25 })
    expect(await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:c', amount: 100, floor: 1 })).toEqual({ ok: false, reason: 'token_disabled' })
    expect((await ledger(user.id)).quota).toBe(975)
  })

  it('count reported requests toward the group limit and say when it is reached', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:d', amount: 500, floor: 0 })
    const report = (ids: string[]) =>
      stub.settleLease({ userId: user.id, leaseId: 'lease:d', rpm: 3, items: ids.map((reqId) => ({ reqId, quota: 1, log: consumeLog(reqId, token.id) })) })
    expect(await report(['r1', 'r2'])).toMatchObject({ rateLimited: false })
    expect(await report(['r3'])).toMatchObject({ rateLimited: true })
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'r4', amount: 1, rpm: 3 })).toEqual({ ok: false, reason: 'rate_limited' })
  })
})

/** A small deterministic generator (mulberry32) so a failing interleaving can be replayed by its seed. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('random interleavings (seeded), with a credit lease', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: Σ log quota = balance change, no hold lost, below zero only by a logged overrun`, async () => {
      const random = rng(seed)
      const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!
      const start = 2000
      const user = await createUser({ quota: start })
      const token = await createToken(user.id, { unlimited: true })
      const stub = wallet(user.id)
      /** Open requests: what each holds, 0 once an expiry charged it. */
      const open = new Map<string, number>()
      /** What the wallet holds for the one credit lease of this run. */
      let leaseHeld = 0
      const keys: string[] = []
      let n = 0
      for (let step = 0; step < 60; step++) {
        const op = pick(['reserve', 'reserve', 'settle', 'settle', 'refund', 'credit', 'expire', 'restart', 'flush', 'lease', 'spend', 'spend'])
        if (op === 'reserve') {
          const reqId = `q${n++}`
          const amount = Math.floor(random() * 400)
          const r = await stub.reserve({ userId: user.id, tokenId: token.id, reqId, amount, floor: random() < 0.3 ? 1 : undefined })
          if (r.ok) open.set(reqId, r.held)
        } else if ((op === 'settle' || op === 'refund') && open.size > 0) {
          const reqId = pick([...open.keys()])
          open.delete(reqId)
          if (op === 'settle') await stub.settle({ userId: user.id, reqId, quota: Math.floor(random() * 500), log: consumeLog(reqId, token.id) })
          else await stub.refund({ userId: user.id, reqId, log: { type: 5, createdAt: now(), requestId: reqId } })
        } else if (op === 'credit') {
          const key = random() < 0.3 && keys.length ? pick(keys) : `c${n++}`
          keys.push(key)
          await stub.credit({ userId: user.id, amount: Math.floor(random() * 600) - 200, key, log: { type: 3, createdAt: now() } })
        } else if (op === 'lease') {
          const r = await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:run', amount: Math.floor(random() * 500), floor: 0 })
          if (r.ok) leaseHeld = r.held
        } else if (op === 'spend') {
          const items = Array.from({ length: Math.floor(random() * 3) }, () => {
            const reqId = `s${n++}`
            return { reqId, quota: Math.floor(random() * 300), log: consumeLog(reqId, token.id) }
          })
          const r = await stub.settleLease({ userId: user.id, leaseId: 'lease:run', items, release: random() < 0.2 })
          if (r.ok) leaseHeld = r.held
        } else if (op === 'expire' && (open.size > 0 || leaseHeld > 0)) {
          await runInDurableObject(stub, (instance: UserWallet) => {
            for (const r of (instance as unknown as { store: WalletStore }).store.holds().values()) r.at = 0
          })
          await runDurableObjectAlarm(stub)
          for (const id of open.keys()) open.set(id, 0)
          leaseHeld = 0
        } else if (op === 'restart') await restart(stub)
        else await stub.flush()
        const b = (await stub.balance({ userId: user.id }))!
        expect(Number.isSafeInteger(b.quota) && Number.isSafeInteger(b.reserved)).toBe(true)
        // No hold is lost or invented, across restarts too.
        expect(b.reserved).toBe([...open.values()].reduce((x, y) => x + y, 0) + leaseHeld)
      }
      // Requests still open report back (each settles or fails once), and the lease goes back.
      for (const reqId of open.keys()) await stub.settle({ userId: user.id, reqId, quota: 3, log: consumeLog(reqId, token.id) })
      await stub.settleLease({ userId: user.id, leaseId: 'lease:run', items: [], release: true })
      const l = await ledger(user.id)
      const rows = await logRows(user.id)
      const credits = rows.filter((r) => r.type === 1 || r.type === 3).reduce((s, r) => s + r.quota, 0)
      expect(rows.filter((r) => r.type === 4).every((r) => r.quota === 0)).toBe(true)
      const charges = rows.filter((r) => r.type === 2 || r.type === 5).reduce((s, r) => s + r.quota, 0)
      expect(l.quota).toBe(start + credits - charges)
      expect(l.used_quota).toBe(charges)
      if (l.quota < 0) expect(rows.some((r) => r.metadata?.includes('"overrun"'))).toBe(true)
      expect((await stub.balance({ userId: user.id }))!).toMatchObject({ quota: l.quota, reserved: 0, pendingLogs: 0 })
    }, 60_000)
  }
})
