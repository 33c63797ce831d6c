/**
 * OpenTelemetry traces against the real server (bundled Worker on workerd): a local HTTP server
 * plays the OTLP collector, root points OtlpEndpoint at it with rate 0 (so the other files sharing
 * the server are not traced), and a relay call carrying a sampled `traceparent` makes the receiver
 * get its root span with gen_ai.request.model, continuing the client's trace.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

const MODEL = 'traces-e2e-model'
const TRACE_ID = crypto.randomUUID().replaceAll('-', '')
const PARENT = '1122334455667788'
let fixture: Awaited<ReturnType<typeof relayFixture>>
let receiver: Server
const received: { url: string; headers: Record<string, string | string[] | undefined>; body: any }[] = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(text) })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  fixture = await relayFixture({ model: MODEL, username: 'tracesuser' })
})

afterAll(async () => {
  await fixture?.root.ok('PUT', '/api/option/', { options: { OtlpEndpoint: '', OtlpHeaders: '', OtlpSampleRate: '1' } })
  await new Promise((resolve) => receiver.close(resolve))
})

const spans = () => received.flatMap((r) => r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((s: any) => s.spans)))
const attr = (span: any, key: string) => span.attributes.find((a: any) => a.key === key)?.value

describe('OTLP traces on the real server', () => {
  it('a relay call with a sampled traceparent reaches the receiver as a span with gen_ai.request.model', async () => {
    const { port } = receiver.address() as AddressInfo
    await fixture.root.ok('PUT', '/api/option/', {
      options: { OtlpEndpoint: `http://127.0.0.1:${port}`, OtlpHeaders: 'x-collector-key=e2e', OtlpSampleRate: '0' },
    })
    const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.token.key}`, 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${PARENT}-01` },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'trace me' }] }),
    })
    expect(res.status).toBe(200)
    await res.text()

    // The trace is exported in the background once the request settled (at most one flush interval later).
    const mine = () => spans().filter((s) => s.traceId === TRACE_ID)
    for (let i = 0; i < 100 && !mine().some((s) => s.parentSpanId === PARENT); i++) await new Promise((r) => setTimeout(r, 100))
    const root = mine().find((s) => s.parentSpanId === PARENT)
    expect(root, 'the root span arrived').toBeDefined()
    expect(attr(root, 'gen_ai.request.model')).toEqual({ stringValue: MODEL })
    expect(attr(root, 'gateway.request_id')).toEqual({ stringValue: res.headers.get('x-request-id') })
    expect(Number(attr(root, 'gen_ai.usage.input_tokens')?.intValue)).toBeGreaterThan(0)
    expect(mine().map((s) => s.name)).toEqual(expect.arrayContaining(['gateway.auth', 'gateway.reserve', 'gateway.settle', `upstream ${MODEL}`]))
    const post = received.find((r) => JSON.stringify(r.body).includes(TRACE_ID))!
    expect(post.url).toBe('/v1/traces')
    expect(post.headers['x-collector-key']).toBe('e2e')
    expect(JSON.stringify(post.body)).not.toContain(fixture.token.key)
    expect(JSON.stringify(post.body)).not.toContain('trace me')
  })
})
