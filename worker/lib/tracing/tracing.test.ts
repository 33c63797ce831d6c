import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, send, setOptions, setPrice } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { setupRoot } from '../../test/client'
import { parseOtlpHeaders } from '../../../shared/contract/otlp-headers'
import { formatTraceparent, parseTraceparent, shouldSample } from './trace-context'
import { exportStats, flushTraces, queueSpans, setTraceFlushInterval, useExportTarget } from './exporter'
import { Trace } from './trace'

const COLLECTOR = 'https://upstream.test/otlp'
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CLIENT_SPAN = '00f067aa0ba902b7'

interface Export {
  url: string
  headers: Headers
  body: any
}
let exports: Export[]
let collectorStatus: number
let upstream: ReturnType<typeof mockUpstream>

beforeEach(async () => {
  exports = []
  collectorStatus = 200
  setTraceFlushInterval(0)
  upstream = mockUpstream((req) => {
    if (!req.url.startsWith(COLLECTOR)) return undefined
    return req.json().then((body) => {
      exports.push({ url: req.url, headers: req.headers, body })
      return new Response('{}', { status: collectorStatus, headers: { 'content-type': 'application/json' } })
    })
  })
  await setPrice('gpt-4o', 2, 4)
})
afterEach(() => {
  upstream.restore()
  setTraceFlushInterval(5_000)
})

const spansOf = (e: Export): any[] => e.body.resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans))
const attr = (span: any, key: string) => {
  const v = span.attributes.find((a: any) => a.key === key)?.value
  return v === undefined ? undefined : (v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue)
}

async function customer() {
  const user = await createUser({ quota: 1_000_000 })
  const token = await createToken(user.id)
  return { user, token }
}

const chat = (key: string, opts: { stream?: boolean; traceparent?: string } = {}) =>
  send('/v1/chat/completions', {
    key,
    headers: opts.traceparent ? { traceparent: opts.traceparent } : {},
    json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'a secret prompt' }], ...(opts.stream ? { stream: true } : {}) },
  })

describe('traceparent', () => {
  it('parses version 00 and later versions, and refuses malformed headers', () => {
    expect(parseTraceparent(`00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`)).toEqual({ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, sampled: true })
    expect(parseTraceparent(`00-${CLIENT_TRACE}-${CLIENT_SPAN}-00`)?.sampled).toBe(false)
    expect(parseTraceparent(`00-${CLIENT_TRACE}-${CLIENT_SPAN}-03`)?.sampled).toBe(true)
    // A later version may carry more fields; version 00 may not.
    expect(parseTraceparent(`01-${CLIENT_TRACE}-${CLIENT_SPAN}-01-extra`)?.traceId).toBe(CLIENT_TRACE)
    expect(parseTraceparent(`00-${CLIENT_TRACE}-${CLIENT_SPAN}-01-extra`)).toBeUndefined()
    for (const bad of [
      '',
      'garbage',
      `ff-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
      `00-${'0'.repeat(32)}-${CLIENT_SPAN}-01`,
      `00-${CLIENT_TRACE}-${'0'.repeat(16)}-01`,
      `00-${CLIENT_TRACE.toUpperCase()}-${CLIENT_SPAN}-01`,
      `00-${CLIENT_TRACE.slice(1)}-${CLIENT_SPAN}-01`,
      `00-${CLIENT_TRACE}-${CLIENT_SPAN}-1`,
    ]) {
      expect(parseTraceparent(bad), bad).toBeUndefined()
    }
    expect(formatTraceparent(CLIENT_TRACE, CLIENT_SPAN, true)).toBe(`00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`)
  })
})

describe('head sampling', () => {
  const low = `${'a'.repeat(19)}0000000000001`
  const high = `${'a'.repeat(19)}fffffffffffff`
  it('follows the rate by trace id, and always traces a sampled parent', () => {
    expect(shouldSample(0, high, undefined)).toBe(false)
    expect(shouldSample(1, high, undefined)).toBe(true)
    expect(shouldSample(0.5, low, undefined)).toBe(true)
    expect(shouldSample(0.5, high, undefined)).toBe(false)
    expect(shouldSample(0, high, { traceId: high, spanId: CLIENT_SPAN, sampled: true })).toBe(true)
    // An unsampled parent does not opt the request out: the rate decides.
    expect(shouldSample(1, high, { traceId: high, spanId: CLIENT_SPAN, sampled: false })).toBe(true)
    expect(shouldSample(0, low, { traceId: low, spanId: CLIENT_SPAN, sampled: false })).toBe(false)
  })

  it('exports nothing while OtlpEndpoint is empty, or when the rate is 0 and the client did not ask', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer()
    expect((await chat(token.key)).status).toBe(200)
    await setOptions({ OtlpEndpoint: COLLECTOR, OtlpSampleRate: '0' })
    expect((await chat(token.key)).status).toBe(200)
    expect((await chat(token.key, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-00` })).status).toBe(200)
    expect(exports).toHaveLength(0)
    expect((await chat(token.key, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` })).status).toBe(200)
    expect(exports).toHaveLength(1)
  })
})

describe('relay traces', () => {
  it('continues the client trace with auth, reserve, upstream and settle spans and the GenAI attributes — no key, no prompt', async () => {
    const channel = await createChannel({ key: 'good' })
    const { user, token } = await customer()
    await setOptions({ OtlpEndpoint: `${COLLECTOR}/`, OtlpHeaders: 'x-api-key=collector%20key,x-team=gw' })
    const res = await chat(token.key, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` })
    expect(res.status).toBe(200)
    expect(exports).toHaveLength(1)
    const [sent] = exports
    expect(sent!.url).toBe(`${COLLECTOR}/v1/traces`)
    expect(sent!.headers.get('x-api-key')).toBe('collector key')
    expect(sent!.headers.get('x-team')).toBe('gw')
    expect(sent!.headers.get('content-type')).toBe('application/json')
    const spans = spansOf(sent!)
    const root = spans.find((s) => s.kind === 2)
    expect(root).toMatchObject({ traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN, name: 'chat gpt-4o' })
    expect(attr(root, 'gen_ai.operation.name')).toBe('chat')
    expect(attr(root, 'gen_ai.request.model')).toBe('gpt-4o')
    expect(attr(root, 'gen_ai.response.model')).toBe('gpt-4o')
    expect(attr(root, 'gen_ai.system')).toBe('openai')
    expect(attr(root, 'gen_ai.usage.input_tokens')).toBe('12')
    expect(attr(root, 'gen_ai.usage.output_tokens')).toBe('7')
    expect(attr(root, 'user.id')).toBe(String(user.id))
    expect(attr(root, 'gateway.token_id')).toBe(String(token.id))
    expect(attr(root, 'gateway.request_id')).toBe(res.headers.get('x-request-id'))
    expect(attr(root, 'http.response.status_code')).toBe('200')
    expect(BigInt(root.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano))
    expect(spans.map((s) => s.name).sort()).toEqual(['chat gpt-4o', 'gateway.auth', 'gateway.reserve', 'gateway.settle', 'upstream gpt-4o'])
    for (const s of spans) expect(s.traceId).toBe(CLIENT_TRACE)
    for (const s of spans.filter((s) => s !== root)) expect(s.parentSpanId).toBe(root.spanId)
    const attempt = spans.find((s) => s.name === 'upstream gpt-4o')
    expect(attempt.kind).toBe(3)
    expect(attr(attempt, 'gateway.channel.id')).toBe(String(channel))
    expect(attr(attempt, 'http.response.status_code')).toBe('200')
    const text = JSON.stringify(sent!.body)
    expect(text).not.toContain(token.key)
    expect(text).not.toContain(token.key.replace(/^sk-/, ''))
    expect(text).not.toContain('a secret prompt')
    expect(text).not.toContain('good')
  })

  it('marks a stream first byte, records failed attempts and the failure, and puts content only with OtlpRecordContent', async () => {
    await createChannel({ key: 'mock-500', priority: 10 })
    await createChannel({ key: 'good', priority: 0 })
    const { token } = await customer()
    await setOptions({ OtlpEndpoint: COLLECTOR, RetryTimes: '1', OtlpRecordContent: 'true' })
    const res = await chat(token.key, { stream: true })
    expect(res.status).toBe(200)
    const spans = exports.flatMap(spansOf)
    const root = spans.find((s) => s.kind === 2)
    expect(root.parentSpanId).toBeUndefined()
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(root.events.map((e: any) => e.name)).toEqual(['gen_ai.first_byte'])
    expect(attr(root, 'gen_ai.input.messages')).toContain('a secret prompt')
    expect(attr(root, 'gen_ai.output.messages')).toContain('Hello from the mock upstream.')
    const attempts = spans.filter((s) => s.name === 'upstream gpt-4o').sort((a, b) => Number(attr(a, 'gateway.attempt')) - Number(attr(b, 'gateway.attempt')))
    expect(attempts.map((s) => attr(s, 'http.response.status_code'))).toEqual(['500', '200'])
    expect(attempts[0].status.code).toBe(2)

    // Every channel failing: the root span is an error with the client's status.
    exports = []
    await setOptions({ RetryTimes: '0', OtlpRecordContent: 'false' })
    const onlyBad = await createUser({ quota: 1_000_000, group: 'default' })
    const badToken = await createToken(onlyBad.id)
    upstream.restore()
    upstream = mockUpstream(async (req) => {
      if (req.url.startsWith(COLLECTOR)) {
        exports.push({ url: req.url, headers: req.headers, body: await req.json() })
        return new Response('{}')
      }
      return new Response(JSON.stringify({ error: { message: 'down', type: 'server_error' } }), { status: 500 })
    })
    expect((await chat(badToken.key)).status).toBe(502)
    const failedRoot = exports.flatMap(spansOf).find((s) => s.kind === 2)
    expect(failedRoot.status.code).toBe(2)
    expect(attr(failedRoot, 'http.response.status_code')).toBe('502')
    expect(attr(failedRoot, 'gen_ai.input.messages')).toBeUndefined()
  })
})

describe('exporter', () => {
  const finished = (n: number) => {
    const t = new Trace('t', 1_700_000_000_000, { n }, { traceId: CLIENT_TRACE })
    t.child('c', 1_700_000_000_000, 1_700_000_000_005, {})
    return t
  }

  it('batches traces queued while an export is scheduled into one POST, and splits big batches', async () => {
    useExportTarget({ endpoint: COLLECTOR, headers: '{"authorization":"Bearer x"}' })
    setTraceFlushInterval(60_000)
    const waits: Promise<unknown>[] = []
    const ctx = { waitUntil: (p: Promise<unknown>) => waits.push(p) }
    for (let i = 0; i < 3; i++) finished(i).end(env, ctx, 1_700_000_000_010)
    expect(waits).toHaveLength(1)
    await Promise.all(waits)
    expect(exports).toHaveLength(1)
    expect(exports[0]!.headers.get('authorization')).toBe('Bearer x')
    const spans = spansOf(exports[0]!)
    expect(spans).toHaveLength(6)
    expect(spans[0]).toMatchObject({ startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000010000000', attributes: [{ key: 'n', value: { intValue: '0' } }] })
    expect(exports[0]!.body.resourceSpans[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'edge-ai-gateway' } })

    exports = []
    const many = Array.from({ length: 1100 }, () => spansOfTrace())
    queueSpans(env, { waitUntil: () => {} }, many.flat())
    await flushTraces(env)
    expect(exports.map((e) => spansOf(e).length)).toEqual([512, 512, 76])
  })

  it('drops past its buffer and counts failed exports without throwing', async () => {
    useExportTarget({ endpoint: COLLECTOR, headers: '' })
    setTraceFlushInterval(60_000)
    const before = exportStats()
    queueSpans(env, { waitUntil: () => {} }, Array.from({ length: 5000 }, () => spansOfTrace()).flat())
    expect(exportStats().dropped - before.dropped).toBe(5000 - 4096)
    collectorStatus = 503
    await flushTraces(env)
    const after = exportStats()
    expect(after.failed - before.failed).toBe(4096)
    expect(after.lastError).toContain('503')
    expect(after.queued).toBe(0)
  })
})

/** One span of a finished trace, as the buffer holds it. */
function spansOfTrace() {
  return [{ traceId: CLIENT_TRACE, spanId: CLIENT_SPAN, name: 's', kind: 1, start: 1, end: 2, attributes: {}, events: [] }]
}

describe('the Otlp settings', () => {
  it('parse both header spellings and refuse bad ones', () => {
    expect(parseOtlpHeaders('{"x-api-key":"k"}')).toEqual({ ok: true, headers: { 'x-api-key': 'k' } })
    expect(parseOtlpHeaders('a=1, b = x%3Dy')).toEqual({ ok: true, headers: { a: '1', b: 'x=y' } })
    expect(parseOtlpHeaders('').ok).toBe(true)
    for (const bad of ['{"a":1}', '[1]', 'novalue', 'bad name=1', '{"x":"a\\nb"}']) expect(parseOtlpHeaders(bad).ok, bad).toBe(false)
  })

  it('are checked on save: endpoint through the outbound guard, rate within 0–1, headers write-only', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/', { key: 'OtlpEndpoint', value: 'http://169.254.169.254' })).status).toBe(400)
    expect((await root.put('/api/option/', { key: 'OtlpEndpoint', value: 'ftp://collector.example' })).status).toBe(400)
    expect((await root.put('/api/option/', { key: 'OtlpSampleRate', value: '1.5' })).status).toBe(400)
    expect((await root.put('/api/option/', { key: 'OtlpHeaders', value: 'novalue' })).status).toBe(400)
    expect((await root.put('/api/option/', { options: { OtlpEndpoint: 'https://collector.example', OtlpHeaders: 'x-api-key=top-secret', OtlpSampleRate: '0.25' } })).status).toBe(
      200
    )
    const listed = (await root.get('/api/option/')).body.data as { key: string; value: string; configured?: boolean }[]
    expect(listed.find((o) => o.key === 'OtlpHeaders')).toMatchObject({ value: '', configured: true })
    expect(listed.find((o) => o.key === 'OtlpSampleRate')?.value).toBe('0.25')
    expect(JSON.stringify(listed)).not.toContain('top-secret')
  })
})
