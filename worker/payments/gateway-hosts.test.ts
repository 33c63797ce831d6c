/**
 * Payment gateway writes (security finding 6 of round 3): root only; every address a gateway is
 * sent to passes the outbound-URL guard; a changed address never takes the stored secrets along
 * (a required one must be typed again: 400); every write leaves a manage-log row without secrets.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { setupRoot, signedInUser, type TestClient } from '../test/client'
import { CONFIGS, useFakeGatewayApis } from '../test/payments-gateways'
import { GATEWAYS } from './gateways/registry'

useFakeGatewayApis()

const create = async (root: TestClient, kind: keyof typeof CONFIGS, extra: Record<string, unknown> = {}) => {
  const res = await root.post('/api/payment/', { name: `${kind} gw`, type: kind, currency: CONFIGS[kind].currency, config: CONFIGS[kind].config, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string }
}
const storedConfig = async (id: number) => JSON.parse((await env.DB.prepare('SELECT config FROM payments WHERE id = ?').bind(id).first<{ config: string }>())!.config)

describe('payment gateway writes', () => {
  it('are root only: an admin may list gateways but not create, change or delete one', async () => {
    const root = await setupRoot()
    const { client: admin, id } = await signedInUser('payadmin')
    expect((await root.post('/api/user/manage', { id, action: 'promote' })).status).toBe(200)
    const gw = await create(root, 'stripe')
    const sent = vi.mocked(globalThis.fetch).mock.calls.length

    expect((await admin.get('/api/payment/')).status).toBe(200)
    expect((await admin.post('/api/payment/', { name: 'x', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config })).status).toBe(403)
    const moved = await admin.put('/api/payment/', { id: gw.id, config: { api_base: 'https://attacker.test' } })
    expect(moved.status).toBe(403)
    expect(moved.body.success).toBe(false)
    expect((await admin.delete(`/api/payment/${gw.id}`)).status).toBe(403)
    // Nothing left the gateway on the admin's behalf, and the row is as root left it.
    expect(vi.mocked(globalThis.fetch).mock.calls.length).toBe(sent)
    expect(await storedConfig(gw.id)).toMatchObject({ secret_key: 'sk_test_gateway', api_base: '' })
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE deleted_at = 0').first<{ n: number }>())!.n).toBe(1)
  })

  it('asks root to type the secrets again when an address changes, and never sends the stored one there', async () => {
    const root = await setupRoot()
    const stripe = await create(root, 'stripe')
    const moved = await root.put('/api/payment/', { id: stripe.id, config: { api_base: 'https://attacker.test' } })
    expect(moved.status).toBe(400)
    expect(moved.body.data.fields['config.secret_key']).toContain('must be typed again: api_base changed')
    const toAttacker = vi.mocked(globalThis.fetch).mock.calls.filter(([input, init]) => new Request(input, init).url.includes('attacker.test'))
    expect(toAttacker).toEqual([])
    // The same address written differently is no move: the secret stays.
    expect((await root.put('/api/payment/', { id: stripe.id, config: { api_base: '' }, name: 'renamed' })).status).toBe(200)
    expect(await storedConfig(stripe.id)).toMatchObject({ secret_key: 'sk_test_gateway', webhook_secret: 'whsec_from_stripe' })

    const epay = await create(root, 'epay')
    for (const change of [{ config: { ...CONFIGS.epay.config, key: '', pay_domain: 'https://cashier.attacker.test' } }, { notify_domain: 'https://notify.attacker.test' }]) {
      const res = await root.put('/api/payment/', { id: epay.id, ...change })
      expect(res.status, JSON.stringify(change)).toBe(400)
      expect(res.body.data.fields['config.key']).toMatch(/must be typed again: (pay_domain|notify_domain) changed/)
    }
    // Typed again, the move is taken with the new secret.
    const retyped = await root.put('/api/payment/', { id: epay.id, config: { ...CONFIGS.epay.config, key: 'epay-new-secret', pay_domain: 'https://cashier.example.com' } })
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(200)
    expect(await storedConfig(epay.id)).toMatchObject({ key: 'epay-new-secret', pay_domain: 'https://cashier.example.com' })
  })

  it('refuses metadata, link-local and private addresses in every host field and the notify domain', async () => {
    const root = await setupRoot()
    const bad = ['http://169.254.169.254', 'http://metadata.google.internal', 'http://10.0.0.8', 'http://[fd00::1]']
    for (const host of bad) {
      const epay = await root.post('/api/payment/', { name: 'e', type: 'epay', currency: 'CNY', config: { ...CONFIGS.epay.config, pay_domain: host } })
      expect(epay.status, host).toBe(400)
      expect(epay.body.data.fields['config.pay_domain']).toBeDefined()
      const stripe = await root.post('/api/payment/', { name: 's', type: 'stripe', currency: 'USD', config: { ...CONFIGS.stripe.config, api_base: host } })
      expect(stripe.body.data.fields['config.api_base'], host).toBeDefined()
      const notify = await root.post('/api/payment/', { name: 'n', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config, notify_domain: host })
      expect(notify.body.data.fields.notify_domain, host).toBeDefined()
    }
    const wx = await create(root, 'wxpay')
    const res = await root.put('/api/payment/', { id: wx.id, config: { ...CONFIGS.wxpay.config, api_base: 'http://169.254.169.254' } })
    expect(res.body.data.fields['config.api_base']).toContain('link-local')
    const ali = await create(root, 'alipay')
    expect((await root.put('/api/payment/', { id: ali.id, config: { ...CONFIGS.alipay.config, gateway_url: 'http://192.168.1.1/gateway.do' } })).status).toBe(400)
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM payments').first<{ n: number }>())!.n).toBe(2)
  })

  it('audits create, update and delete with who, what and the client address, never a secret', async () => {
    const root = await setupRoot()
    const ip = { headers: { 'cf-connecting-ip': '198.51.100.4' } }
    const res = await root.post('/api/payment/', { name: 'Epay', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config }, ip)
    const id = res.body.data.id as number
    expect((await root.put('/api/payment/', { id, fixed_fee: 0.5, config: { ...CONFIGS.epay.config, key: '' } }, ip)).status).toBe(200)
    expect((await root.put('/api/payment/', { id, config: { ...CONFIGS.epay.config, key: 'epay-rotated-key' } }, ip)).status).toBe(200)
    expect((await root.delete(`/api/payment/${id}`, ip)).status).toBe(200)
    const { results } = await env.DB.prepare("SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE '%payment gateway%' ORDER BY id").all<any>()
    expect(results.map((r) => r.content)).toEqual([
      `root created payment gateway "Epay" (#${id}, epay)`,
      `root updated payment gateway "Epay" (#${id}): fixed_fee`,
      `root updated payment gateway "Epay" (#${id}): key (secret, changed)`,
      `root deleted payment gateway "Epay" (#${id}, epay)`,
    ])
    expect(results.every((r) => r.username === 'root' && r.source_ip === '198.51.100.4')).toBe(true)
    expect(JSON.parse(results[1].metadata)).toMatchObject({ gateway_id: id, secrets: { key: 'unchanged' }, actor: 'root' })
    expect(JSON.parse(results[2].metadata).secrets).toEqual({ key: 'changed' })
    expect(JSON.stringify(results)).not.toContain('epay-secret-key')
    expect(JSON.stringify(results)).not.toContain('epay-rotated-key')
  })

  it('every gateway declares each of its address fields as a host', () => {
    for (const gateway of Object.values(GATEWAYS))
      for (const f of gateway.fields) if (/^https?:/.test(f.default ?? '') || /(_base|_url|_domain)$/.test(f.key)) expect(f.host, `${gateway.type}.${f.key}`).toBe(true)
  })
})
