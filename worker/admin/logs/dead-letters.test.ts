/**
 * Dead letters: log rows that keep failing while D1 answers are parked after DEAD_LETTER_AFTER
 * attempts (the balances still land and the queue moves on), root sees them, and a retry writes
 * the row and removes it from the list. Only root may do either.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { DEAD_LETTER_AFTER } from '../../wallet/wallet-flush'
import type { UserWallet } from '../../wallet/user-wallet'
import { setupRoot, signedInUser } from '../../test/client'
import { createToken, createUser, ledger, wallet } from '../../test/factories'

/** Make the wallet's D1 refuse every batch that inserts log rows, as a poisoned row would. */
async function refuseLogRows(stub: ReturnType<typeof wallet>, refuse: boolean) {
  await runInDurableObject(stub, (instance: UserWallet) => {
    const s = instance as unknown as { env: Env; realDb?: D1Database }
    s.realDb ??= s.env.DB
    const real = s.realDb
    if (!refuse) {
      s.env = { ...s.env, DB: real }
      return
    }
    const db = Object.create(real) as D1Database
    db.prepare = (q: string) => real.prepare(q)
    db.batch = async (stmts) => {
      if (stmts.some((st) => String((st as unknown as { statement?: string }).statement ?? '').startsWith('INSERT INTO logs'))) {
        throw new Error('D1_ERROR: string or blob too big: SQLITE_TOOBIG')
      }
      return real.batch(stmts)
    }
    s.env = { ...s.env, DB: db }
  })
}

describe('wallet dead letters', () => {
  it('parks rows that keep failing, lands the balance, and lets root write them back', async () => {
    const root = await setupRoot()
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await refuseLogRows(stub, true)
    await stub.settle({ userId: user.id, reqId: 'poisoned', quota: 40, log: { type: 2, createdAt: 1, tokenId: token.id, modelName: 'm', requestId: 'poisoned' } })
    for (let i = 1; i < DEAD_LETTER_AFTER; i++) expect((await stub.flush()).ok).toBe(false)
    // The last attempt parks the row: D1 answered, so the row (not D1) is the problem.
    expect(await stub.flush()).toEqual({ ok: true })
    await refuseLogRows(stub, false)
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 960, used_quota: 40, consumeLogs: 0 })
    expect((await stub.balance({ userId: user.id }))!.pendingLogs).toBe(0)

    const list = await root.get('/api/log/dead-letters')
    expect(list.status).toBe(200)
    const letter = list.body.data.data.find((d: any) => d.user_id === user.id)
    expect(letter).toMatchObject({ row: { requestId: 'poisoned', quota: 40 }, error: expect.stringContaining('TOOBIG') })

    const { client: admin, id: adminId } = await signedInUser('dl-admin')
    await root.post('/api/user/manage', { id: adminId, action: 'promote' })
    expect((await admin.get('/api/log/dead-letters')).status).toBe(403)
    expect((await admin.post(`/api/log/dead-letters/${letter.id}/retry`, {})).status).toBe(403)

    expect((await root.post(`/api/log/dead-letters/${letter.id}/retry`, {})).status).toBe(200)
    expect(await ledger(user.id)).toMatchObject({ quota: 960, consumeLogs: 1, loggedQuota: 40 })
    expect((await root.get('/api/log/dead-letters')).body.data.data.some((d: any) => d.id === letter.id)).toBe(false)
    expect((await root.post(`/api/log/dead-letters/${letter.id}/retry`, {})).status).toBe(404)
  })

  it('a D1 outage parks nothing: the plan waits and lands whole', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    await runInDurableObject(stub, (instance: UserWallet) => {
      const s = instance as unknown as { env: Env }
      const real = s.env.DB
      const db = Object.create(real) as D1Database
      db.prepare = (q: string) => real.prepare(q)
      let outage = DEAD_LETTER_AFTER + 2
      db.batch = async (stmts) => {
        if (outage-- > 0) throw new Error('D1_ERROR: Network connection lost.')
        return real.batch(stmts)
      }
      s.env = { ...s.env, DB: db }
    })
    await stub.settle({ userId: user.id, reqId: 'during-outage', quota: 15, log: { type: 2, createdAt: 1, tokenId: token.id, requestId: 'during-outage' } })
    // More failed attempts than DEAD_LETTER_AFTER, then D1 is back.
    for (let i = 0; i < DEAD_LETTER_AFTER + 2; i++) expect((await stub.flush()).ok).toBe(false)
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 985, consumeLogs: 1, loggedQuota: 15 })
    const parked = await env.DB.prepare('SELECT COUNT(*) AS n FROM wallet_dead_letters WHERE user_id = ?').bind(user.id).first<number>('n')
    expect(parked).toBe(0)
  })
})
