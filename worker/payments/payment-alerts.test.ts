/**
 * The public notify route cannot fill D1 (security finding 10 of round 3): an unknown gateway is a
 * plain 404 that writes nothing, refusals for a known gateway write one log row a minute per gateway
 * and reason, and the route is rate-limited per client address.
 */
import { exports } from 'cloudflare:workers'
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { setupRoot, type TestClient } from '../test/client'
import { CONFIGS, useFakeGatewayApis } from '../test/payments-gateways'
import { NOTIFY_RATE_LIMIT } from './payments.routes'

useFakeGatewayApis()

const logCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM logs').first<{ n: number }>())!.n
const paymentLogs = async () =>
  (await env.DB.prepare("SELECT content, metadata FROM logs WHERE content LIKE 'Payment:%' ORDER BY id").all<{ content: string; metadata: string }>()).results

const notify = (uuid: string, ip: string, method = 'POST') =>
  exports.default.fetch(
    new Request(`http://gateway.test/api/payment/notify/${uuid}?out_trade_no=1&sign=${'a'.repeat(1500)}`, {
      method,
      headers: { 'cf-connecting-ip': ip, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? undefined : `money=1&pad=${'b'.repeat(3000)}`,
    })
  )

const epay = async (root: TestClient, name: string) => {
  const res = await root.post('/api/payment/', { name, type: 'epay', currency: 'CNY', config: CONFIGS.epay.config })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string }
}

describe('payment notify writes', () => {
  it('answers an unknown gateway with a plain 404 and writes nothing', async () => {
    await setupRoot()
    const before = await logCount()
    for (let i = 0; i < 40; i++) {
      const res = await notify(i % 2 ? `unknown-${i}` : crypto.randomUUID().replace(/-/g, ''), '192.0.2.10', i % 3 ? 'POST' : 'GET')
      expect(res.status).toBe(404)
      expect(await res.text()).toBe('unknown payment gateway')
    }
    expect(await logCount()).toBe(before)
  })

  it('logs refusals for a known gateway once a minute per gateway and reason', async () => {
    const root = await setupRoot()
    const a = await epay(root, 'Epay A')
    const b = await epay(root, 'Epay B')
    for (let i = 0; i < 15; i++) {
      expect(await (await notify(a.uuid, '192.0.2.20')).text()).toBe('fail')
      expect(await (await notify(b.uuid, '192.0.2.20')).text()).toBe('fail')
    }
    // A disabled gateway is another reason: its own row.
    expect((await root.put('/api/payment/', { id: a.id, enable: false })).status).toBe(200)
    for (let i = 0; i < 10; i++) expect(await (await notify(a.uuid, '192.0.2.20')).text()).toBe('fail')
    const rows = await paymentLogs()
    expect(rows.map((r) => r.content)).toEqual([
      expect.stringContaining(`notify to Epay A (#${a.id}) refused`),
      expect.stringContaining(`notify to Epay B (#${b.id}) refused`),
      `Payment: notify for disabled gateway Epay A (#${a.id}) refused`,
    ])
    expect(JSON.parse(rows[0]!.metadata).throttle).toBe('one row per minute for invalid')
  })

  it('rate-limits the route per client address', async () => {
    await setupRoot()
    const statuses: number[] = []
    for (let i = 0; i <= NOTIFY_RATE_LIMIT.limit; i++) statuses.push((await notify('nope', '192.0.2.30', 'GET')).status)
    expect(statuses.slice(0, NOTIFY_RATE_LIMIT.limit).every((s) => s === 404)).toBe(true)
    const refused = await notify('nope', '192.0.2.30', 'GET')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(statuses.at(-1)).toBe(429)
    // Another address is not affected.
    expect((await notify('nope', '192.0.2.31', 'GET')).status).toBe(404)
  })
})
