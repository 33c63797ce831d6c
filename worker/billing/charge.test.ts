/**
 * The one Charge on its own: an exact hold settles to the exact cost with one log row (the
 * surface's labels in its metadata), a refund gives the hold back, a lease hold settles through
 * the isolate's lease, and a session's parts each get their own key under the request id.
 */
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, ledger } from '../test/factories'
import { Charge, type ChargeContext, type Hold, isRefusal } from './charge'
import { LOG_TYPE } from '../../shared/contract/enums'

async function chargeFor(quota: number, labels?: Record<string, unknown>) {
  const user = await createUser({ quota })
  const token = await createToken(user.id)
  const ctx = createExecutionContext()
  const c: ChargeContext = {
    env,
    ctx,
    auth: { id: token.id, userId: user.id, username: user.username, name: 'test-token' },
    reqId: `charge-${crypto.randomUUID()}`,
    model: 'gpt-4o',
    sourceIp: '203.0.113.7',
    labels,
  }
  return { user, ctx, charge: new Charge(c) }
}

const held = (h: Awaited<ReturnType<Charge['open']>>): Hold => {
  if (isRefusal(h)) throw new Error(`refused: ${h.reason}`)
  return h
}

describe('Charge', () => {
  it('settles an exact hold to the exact cost with one consume row carrying the labels', async () => {
    const { user, charge } = await chargeFor(10_000, { inbound_format: 'test' })
    const hold = held(await charge.open({ amount: 3_000 }))
    expect(hold).toMatchObject({ held: 3_000, reqId: charge.c.reqId })
    const log = charge.logRow(LOG_TYPE.CONSUME, { channelId: 0, content: 'done' }, { attempts: 1 })
    const settled = await charge.settle(hold, { quota: 1_234, log })
    expect(settled).toMatchObject({ ok: true, charged: 1_234 })
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 10_000 - 1_234, consumeLogs: 1, loggedQuota: 1_234 })
    const row = await env.DB.prepare('SELECT request_id, source_ip, metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(row).toMatchObject({ request_id: charge.c.reqId, source_ip: '203.0.113.7' })
    expect(JSON.parse(row.metadata)).toMatchObject({ attempts: 1, inbound_format: 'test' })
  })

  it('gives a refunded hold back and writes its error row', async () => {
    const { user, charge } = await chargeFor(5_000)
    const hold = held(await charge.open({ amount: 4_000 }))
    await charge.refund(hold, charge.logRow(LOG_TYPE.ERROR, { content: 'upstream failed' }, {}))
    const l = await ledger(user.id)
    expect(l.quota).toBe(5_000)
    expect(l.consumeLogs).toBe(0)
    const errors = await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = ?').bind(user.id, LOG_TYPE.ERROR).first<{ n: number }>()
    expect(errors?.n).toBe(1)
  })

  it('refuses a hold the balance cannot cover, as a value', async () => {
    const { charge } = await chargeFor(100)
    const refused = await charge.open({ amount: 5_000 })
    expect(isRefusal(refused) && refused.reason).toBe('insufficient_user_quota')
  })

  it('serves a hold from the lease when allowed, and settles it through the lease', async () => {
    const { user, ctx, charge } = await chargeFor(1_000_000)
    const hold = held(await charge.open({ amount: 2_000, limits: { rules: [], tokens: 0 }, admit: true, lease: true, debt: { maxOpen: 0, maxOverrun: 0 } }))
    expect(hold.lease).toBeDefined()
    await charge.settle(hold, { quota: 1_500, channelId: 0, log: charge.logRow(LOG_TYPE.CONSUME, {}, {}) })
    await waitOnExecutionContext(ctx)
    expect(await ledger(user.id)).toMatchObject({ quota: 1_000_000 - 1_500, loggedQuota: 1_500 })
  })

  it('keys each part of a call under its request id', async () => {
    const { charge } = await chargeFor(10_000)
    const a = held(await charge.open({ amount: 100, part: 'response' }))
    const b = held(await charge.open({ amount: 100, part: 'check' }))
    const slot = held(await charge.open({ amount: 0, part: 'slot' }))
    expect([a.reqId, b.reqId, slot.reqId]).toEqual([`${charge.c.reqId}:response:1`, `${charge.c.reqId}:check:2`, `${charge.c.reqId}:slot`])
    for (const h of [a, b, slot]) await charge.refund(h)
  })
})
