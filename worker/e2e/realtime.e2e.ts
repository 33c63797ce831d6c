/**
 * A realtime session against the running gateway and the mock realtime upstream with a raw
 * WebSocket client (`ws`): session.created relayed, two responses each billed from its
 * response.done usage, the subprotocol key form, and the balance moving by exactly the logged quota.
 */
import WebSocket from 'ws'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

const MODEL = 'gpt-4o-realtime-preview'
let fixture: Awaited<ReturnType<typeof relayFixture>>
let startQuota = 0

beforeAll(async () => {
  fixture = await relayFixture({ username: `rt${Date.now().toString(36)}`, model: MODEL })
  startQuota = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
})

function session(opts: { headers?: Record<string, string>; protocols?: string[] }) {
  const url = `${inject('gatewayUrl').replace(/^http/, 'ws')}/v1/realtime?model=${MODEL}`
  const ws = new WebSocket(url, opts.protocols ?? [], { headers: opts.headers })
  const events: any[] = []
  const waiting: { type: string; resolve: (e: any) => void }[] = []
  ws.on('message', (raw) => {
    const e = JSON.parse(String(raw))
    const at = waiting.findIndex((w) => w.type === e.type)
    if (at >= 0) waiting.splice(at, 1)[0]!.resolve(e)
    else events.push(e)
  })
  const next = (type: string) => {
    const at = events.findIndex((e) => e.type === type)
    if (at >= 0) return Promise.resolve(events.splice(at, 1)[0])
    return new Promise<any>((resolve) => waiting.push({ type, resolve }))
  }
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  return { ws, next, opened, closed }
}

describe('realtime WebSocket relay', () => {
  it('relays a session and bills each response.done', async () => {
    const s = session({ headers: { authorization: `Bearer ${fixture.token.key}` } })
    await s.opened
    expect((await s.next('session.created')).session.model).toBe(MODEL)
    for (const n of [1, 2]) {
      s.ws.send(JSON.stringify({ type: 'response.create', response: { modalities: ['text'] } }))
      const done = await s.next('response.done')
      expect(done.response).toMatchObject({ id: `resp_mock${n}`, status: 'completed', usage: { input_tokens: 200, output_tokens: 100 } })
    }
    s.ws.close(1000)
    await s.closed
  })

  it('takes the key from the browser subprotocol and negotiates "realtime"', async () => {
    const s = session({ protocols: ['realtime', `openai-insecure-api-key.${fixture.token.key}`, 'openai-beta.realtime-v1'] })
    await s.opened
    expect(s.ws.protocol).toBe('realtime')
    await s.next('session.created')
    s.ws.close(1000)
    await s.closed
  })

  it('refuses a wrong key before upgrading', async () => {
    const s = session({ headers: { authorization: 'Bearer sk-wrong' } })
    await expect(s.opened).rejects.toThrow(/401/)
  })

  it('moved the balance by exactly the logged quota', async () => {
    await expectBalanceMatchesLogs(fixture.user, startQuota, 2)
  })
})
