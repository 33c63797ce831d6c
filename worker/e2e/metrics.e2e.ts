/**
 * GET /metrics against the real server (bundled Worker on workerd, `npm start`'s serve.mjs): root
 * sets a MetricsToken, a relay call through the mock upstream moves the request and token counters
 * on the scrape (the server is shared with other files, so the test compares before and after).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

const TOKEN = `metrics-e2e-${crypto.randomUUID()}`
const MODEL = 'metrics-e2e-model'
let fixture: Awaited<ReturnType<typeof relayFixture>>

async function scrape(token = TOKEN) {
  const res = await fetch(`${inject('gatewayUrl')}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

/** The sum of the samples of `name` whose labels contain every one of `labels`. */
function total(text: string, name: string, labels: string[]): number {
  let sum = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    const series = line.slice(0, line.lastIndexOf(' '))
    if (labels.every((l) => series.includes(l))) sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}

beforeAll(async () => {
  fixture = await relayFixture({ model: MODEL, username: 'metricsuser' })
})

describe('GET /metrics on the real server', () => {
  it('a relay call moves the request and token counters', async () => {
    await fixture.root.ok('PUT', '/api/option/', { key: 'MetricsToken', value: TOKEN })
    expect((await scrape('')).status).toBe(401)
    const before = await scrape()
    expect(before.status).toBe(200)
    expect(before.type).toBe('text/plain; version=0.0.4; charset=utf-8')
    const model = `model="${MODEL}"`
    const genModel = `gen_ai_request_model="${MODEL}"`
    const requests0 = total(before.text, 'gateway_requests_total', [model, 'status_class="2xx"'])
    const input0 = total(before.text, 'gen_ai_client_token_usage_sum', [genModel, 'gen_ai_token_type="input"'])

    const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'count me' }] }),
    })
    expect(res.status).toBe(200)
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage

    // The request is recorded when it settles, just after its answer went out.
    let after = await scrape()
    for (let i = 0; i < 50 && total(after.text, 'gateway_requests_total', [model]) === requests0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      after = await scrape()
    }
    expect(total(after.text, 'gateway_requests_total', [model, 'status_class="2xx"', 'inbound_format="openai"'])).toBe(requests0 + 1)
    expect(total(after.text, 'gen_ai_client_token_usage_sum', [genModel, 'gen_ai_token_type="input"'])).toBe(input0 + usage.prompt_tokens)
    expect(total(after.text, 'gen_ai_client_token_usage_sum', [genModel, 'gen_ai_token_type="output"'])).toBeGreaterThanOrEqual(usage.completion_tokens)
    expect(total(after.text, 'gateway_quota_charged_total', [model])).toBeGreaterThan(0)
    expect(after.text).toMatch(/^gateway_channel_status\{channel="\d+",channel_type="\d+",status="enabled"\} 1$/m)
  })
})
