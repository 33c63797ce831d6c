/**
 * Alerts end to end: a webhook notification channel pointing at a receiver in this test, then a
 * channel whose key the mock upstream revokes (401) fails relay requests from two users until the
 * gateway disables it. The receiver gets `channel.disabled` for that channel exactly once, signed
 * with the channel's secret (X-Signature), and the delivery log shows it delivered.
 */
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { rootSession, userSession, type ApiSession } from './support/api'

const stamp = Date.now().toString(36)
const MODEL = `alert-model-${stamp}`
const SECRET = `whsec-${stamp}`

interface Received {
  body: any
  signature: string
  raw: string
}

let root: ApiSession
let server: Server
const received: Received[] = []
let notifyId = 0

function listen(): Promise<string> {
  server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      received.push({ body: JSON.parse(raw), signature: String(req.headers['x-signature'] ?? ''), raw })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)))
}

async function clientFor(username: string): Promise<OpenAI> {
  const user = await userSession(username)
  const me = await user.ok<{ id: number }>('GET', '/api/user/self')
  await root.ok('POST', `/api/user/quota/${me.id}`, { quota: 5_000_000, remark: 'e2e alerts' })
  const token = await user.ok<{ key: string }>('POST', '/api/token/', { name: 'alerts key', unlimited_quota: true })
  return new OpenAI({ apiKey: token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
}

const until = async (check: () => Promise<boolean> | boolean, ms: number) => {
  const end = Date.now() + ms
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200))
}

beforeAll(async () => {
  root = await rootSession()
  const url = await listen()
  notifyId = (await root.ok<{ id: number }>('POST', '/api/notify/channel/', { name: `e2e-${stamp}`, type: 'webhook', url, secret: SECRET, events: ['channel.disabled'] })).id
  await root.ok('POST', '/api/prices/single', { model: MODEL, type: 'tokens', channel_type: 1, input: 0.1, output: 0.2 })
  await root.ok('PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
})

afterAll(async () => {
  await root?.call('DELETE', `/api/notify/channel/${notifyId}`)
  await root?.call('PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' })
  await new Promise((r) => server?.close(r))
})

describe('alerts', () => {
  it('a channel disabled by failures makes the webhook receiver get channel.disabled exactly once', async () => {
    const [channel] = await root.ok<any[]>('POST', '/api/channel/', {
      type: 8,
      name: `alert-${stamp}`,
      key: 'mock-401',
      base_url: inject('mockUrl'),
      models: [MODEL],
      group: ['default'],
      auto_disable_threshold: 1,
    })
    const clients = [await clientFor(`alerta${stamp}`), await clientFor(`alertb${stamp}`)]
    const mine = () => received.filter((r) => r.body.event === 'channel.disabled' && r.body.data?.channel_id === channel.id)
    const status = async () => (await root.ok<any>('GET', `/api/channel/${channel.id}`)).status
    // Failures from two users disable the channel (the auto-disable rule); keep sending until it is off.
    let sent = 0
    await until(async () => {
      await clients[sent++ % 2]!.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined)
      return (await status()) === 3
    }, 20_000)
    expect(await status()).toBe(3)
    await until(() => mine().length > 0, 10_000)
    // More failing calls and time for any late duplicate: still one notice.
    for (const c of clients) await c.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'again' }] }).catch(() => undefined)
    await new Promise((r) => setTimeout(r, 1500))
    expect(mine()).toHaveLength(1)
    const notice = mine()[0]!
    expect(Object.keys(notice.body)).toEqual(['event', 'at', 'severity', 'text', 'data'])
    expect(notice.body).toMatchObject({ event: 'channel.disabled', severity: 'warning', data: { subject: `channel:${channel.id}`, channel_id: channel.id } })
    expect(notice.signature).toBe(createHmac('sha256', SECRET).update(notice.raw).digest('hex'))
    const log = await root.ok<any>('GET', `/api/notify/channel/${notifyId}/deliveries`)
    expect(log.data.filter((d: any) => d.subject === `channel:${channel.id}`)).toMatchObject([{ event: 'channel.disabled', status: 'delivered', attempts: 1, http_status: 200 }])
  })
})
