import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../index'
import { setupRoot } from '../../test/client'
import { createChannel, createToken, createUser, send, setPrice } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { CONFIGS, notifyFor } from '../../test/payments-gateways'
import { runScheduled, FREQUENT_CRON } from '../../cron'

const TOKEN = 'metrics-token-0123456789'
let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const scrape = (token = TOKEN) => send('/metrics', { headers: token ? { authorization: `Bearer ${token}` } : {} })

/** The value of one sample line (`name{labels}`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

async function chat(key: string, stream = false, e: Env = env) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request('http://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }),
    }),
    e,
    ctx
  )
  await res.text()
  await waitOnExecutionContext(ctx)
  return res.status
}

describe('GET /metrics', () => {
  it('is 404 while no MetricsToken is set, 401 without the right one; the token is write-only', async () => {
    expect((await scrape()).status).toBe(404)
    const root = await setupRoot()
    expect((await root.put('/api/option/', { key: 'MetricsToken', value: TOKEN })).status).toBe(200)
    const listed = (await root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'MetricsToken')
    expect(listed).toMatchObject({ value: '', configured: true })
    expect(JSON.stringify((await root.get('/api/option/')).body)).not.toContain(TOKEN)
    const none = await scrape('')
    expect(none.status).toBe(401)
    expect(none.json).toMatchObject({ success: false })
    expect(none.headers.get('www-authenticate')).toContain('Bearer')
    expect((await scrape('wrong-token')).status).toBe(401)
    const ok = await scrape()
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(ok.text).toContain('# TYPE gateway_requests_total counter')
  })

  it('counts relay requests, tokens, quota, durations, first tokens, upstream calls and lease events', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { key: 'MetricsToken', value: TOKEN })
    await setPrice('gpt-4o', 1, 1)
    const channel = { id: await createChannel({ key: 'good' }), type: 1 }
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const points: AnalyticsEngineDataPoint[] = []
    const withAe = { ...env, METRICS_AE: { writeDataPoint: (p: AnalyticsEngineDataPoint) => points.push(p) } } as Env
    expect(await chat(token.key, false, withAe)).toBe(200)
    expect(await chat(token.key, true, withAe)).toBe(200)
    const { text } = await scrape()
    const labels = `model="gpt-4o",channel="${channel.id}",channel_type="${channel.type}",inbound_format="openai",status_class="2xx",error_code=""`
    expect(sample(text, `gateway_requests_total{${labels}}`)).toBe(2)
    expect(sample(text, 'gen_ai_client_token_usage_sum{gen_ai_request_model="gpt-4o",gen_ai_token_type="input"}')).toBe(24)
    expect(sample(text, 'gen_ai_client_token_usage_sum{gen_ai_request_model="gpt-4o",gen_ai_token_type="output"}')).toBe(14)
    expect(sample(text, 'gen_ai_client_token_usage_count{gen_ai_request_model="gpt-4o",gen_ai_token_type="input"}')).toBe(2)
    expect(sample(text, 'gateway_quota_charged_total{model="gpt-4o",group="default"}')).toBeGreaterThan(0)
    expect(sample(text, 'gen_ai_client_operation_duration_seconds_count{gen_ai_request_model="gpt-4o",status_class="2xx"}')).toBe(2)
    expect(sample(text, 'gen_ai_server_time_to_first_token_seconds_count{gen_ai_request_model="gpt-4o"}')).toBe(1)
    expect(sample(text, `gateway_upstream_duration_seconds_count{channel_type="${channel.type}",outcome="ok"}`)).toBe(2)
    expect(sample(text, 'gateway_wallet_lease_events_total{event="grant"}')).toBe(1)
    expect(sample(text, 'gateway_wallet_lease_events_total{event="report"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, `gateway_channel_status{channel="${channel.id}",channel_type="${channel.type}",status="enabled"}`)).toBe(1)
    expect(sample(text, 'gateway_wallet_dead_letters')).toBe(0)
    // One Analytics Engine data point per request when the binding is there.
    expect(points).toHaveLength(2)
    expect(points[0]).toMatchObject({ indexes: ['gpt-4o'], blobs: ['gpt-4o', String(channel.id), String(channel.type), 'openai', '2xx', '', 'default'] })
    expect(points[0]!.doubles![2]).toBe(12)
  })

  it('counts failed requests by status class and error code, failovers, and disabled channels', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { MetricsToken: TOKEN, RetryTimes: '1' } })
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'mock-500', name: 'bad-a' })
    const worse = await createChannel({ key: 'mock-500', name: 'bad-b' })
    const off = await createChannel({ key: 'good', name: 'off', models: 'other-model' })
    await env.DB.prepare('UPDATE channels SET status = 2 WHERE id = ?').bind(off).run()
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    expect(await chat(token.key)).toBeGreaterThanOrEqual(500)
    const { text } = await scrape()
    const line = text.split('\n').find((l) => l.startsWith('gateway_requests_total{') && l.includes('status_class="5xx"'))
    expect(line).toMatch(/error_code="upstream_error"\} 1$/)
    expect(sample(text, 'gateway_retries_total{kind="failover"}')).toBe(1)
    expect(sample(text, 'gateway_upstream_duration_seconds_count{channel_type="1",outcome="5xx"}')).toBe(2)
    expect(sample(text, `gateway_channel_status{channel="${off}",channel_type="1",status="disabled"}`)).toBe(1)
    expect(text).toContain(`gateway_channel_status{channel="${worse}"`)
  })

  it('counts cron runs with their duration and last success, and payment notifies by result', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { key: 'MetricsToken', value: TOKEN })
    const before = Math.floor(Date.now() / 1000)
    await runScheduled({ cron: FREQUENT_CRON, scheduledTime: Date.now() }, env)
    const gw = (await root.post('/api/payment/', { name: 'Epay', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config })).body.data
    const n = await notifyFor('epay', 'no-such-order', 100, 'CNY', 'signature')
    await send(`/api/payment/notify/${gw.uuid}${n.query ? `?${n.query}` : ''}`, { method: n.method, headers: n.headers, body: n.body })
    const { text } = await scrape()
    expect(sample(text, 'gateway_cron_runs_total{job="rollup",result="ok"}')).toBe(1)
    expect(sample(text, 'gateway_cron_duration_seconds_count{job="rollup"}')).toBe(1)
    expect(sample(text, 'gateway_cron_last_success_timestamp_seconds{job="rollup"}')).toBeGreaterThanOrEqual(before)
    expect(sample(text, 'gateway_payment_notifies_total{gateway="epay",result="refused"}')).toBe(1)
  })
})
