/**
 * Balances never wait on log rows: while D1 refuses every log insert (a trigger raising on insert
 * into logs, as a full database or a poisoned row would), the user's quota, used quota and request
 * count and the token's remaining and used quota still reach D1 on every flush, so
 * `/api/user/self` stays true; once the fault clears, every parked log row lands exactly once and
 * the rows add up to the balance change.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { DEAD_LETTER_AFTER } from './wallet-flush'
import { signedInUser } from '../test/client'
import { createToken, ledger, topUp, wallet } from '../test/factories'

const refuseLogs = () => env.DB.prepare("CREATE TRIGGER refuse_logs BEFORE INSERT ON logs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END").run()
const acceptLogs = () => env.DB.prepare('DROP TRIGGER IF EXISTS refuse_logs').run()

afterEach(acceptLogs)

describe('the write-behind while every log insert fails', () => {
  it('keeps the balances in D1 moving, and lands every parked row exactly once after', async () => {
    const { client, id: userId } = await signedInUser('balances-first')
    await topUp(userId, 10_000)
    const token = await createToken(userId, { remain: 5_000, unlimited: false })
    const stub = wallet(userId)
    expect(await stub.flush()).toEqual({ ok: true })
    await refuseLogs()

    // Fewer failed flushes than DEAD_LETTER_AFTER: the rows stay parked in the wallet, not dead-lettered.
    const charges = [120, 30, 7]
    expect(charges.length).toBeLessThan(DEAD_LETTER_AFTER)
    let spent = 0
    for (const [i, quota] of charges.entries()) {
      await stub.settle({ userId, reqId: `outage-${i}`, quota, log: { type: 2, createdAt: 1_764_000_000 + i, tokenId: token.id, modelName: 'm', requestId: `outage-${i}` } })
      spent += quota
      expect((await stub.flush()).ok).toBe(false)
      const self = await client.get('/api/user/self')
      expect(self.status).toBe(200)
      expect(self.body.data).toMatchObject({ quota: 10_000 - spent, used_quota: spent, request_count: i + 1 })
      const row = await env.DB.prepare('SELECT remain_quota, used_quota FROM tokens WHERE id = ?').bind(token.id).first()
      expect(row).toEqual({ remain_quota: 5_000 - spent, used_quota: spent })
    }
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 2').bind(userId).first('n')).toBe(0)
    expect((await stub.balance({ userId }))!.pendingLogs).toBe(charges.length)

    await acceptLogs()
    expect(await ledger(userId)).toMatchObject({ quota: 10_000 - spent, used_quota: spent, consumeLogs: charges.length, loggedQuota: spent })
    const ids = await env.DB.prepare('SELECT request_id FROM logs WHERE user_id = ? AND type = 2 ORDER BY request_id').bind(userId).all<{ request_id: string }>()
    expect(ids.results.map((r) => r.request_id)).toEqual(['outage-0', 'outage-1', 'outage-2'])
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM wallet_dead_letters WHERE user_id = ?').bind(userId).first('n')).toBe(0)
    expect((await stub.balance({ userId }))!.pendingLogs).toBe(0)
  })
})
