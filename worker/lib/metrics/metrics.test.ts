import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import type { MetricsStore } from '../../../durable-objects/metrics-store'
import { MAX_SERIES, MetricsRegistry, emptySnapshot } from './registry'
import { renderPrometheus } from './render'
import { flushMetrics, metrics, metricsStore } from './recorder'

describe('metrics registry and exposition format', () => {
  it('renders counters with escaped labels, and histograms as cumulative buckets with +Inf, _sum and _count', () => {
    const r = new MetricsRegistry()
    r.inc('gateway_quota_charged_total', ['gpt-"4"\\o\nx', 'default'], 150)
    r.inc('gateway_quota_charged_total', ['gpt-"4"\\o\nx', 'default'], 50)
    r.observe('gen_ai_server_time_to_first_token_seconds', ['m'], 0.015)
    r.observe('gen_ai_server_time_to_first_token_seconds', ['m'], 0.5)
    r.observe('gen_ai_server_time_to_first_token_seconds', ['m'], 1000)
    r.max('gateway_cron_last_success_timestamp_seconds', ['rollup'], 100)
    r.max('gateway_cron_last_success_timestamp_seconds', ['rollup'], 90)
    const text = renderPrometheus(r.take(), [{ name: 'gateway_x', help: 'a\nb', labels: [], samples: [{ values: [], value: 3 }] }])
    expect(text).toContain('# TYPE gateway_quota_charged_total counter\n')
    expect(text).toContain('gateway_quota_charged_total{model="gpt-\\"4\\"\\\\o\\nx",group="default"} 200\n')
    expect(text).toContain('# TYPE gen_ai_server_time_to_first_token_seconds histogram\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_bucket{gen_ai_request_model="m",le="0.01"} 0\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_bucket{gen_ai_request_model="m",le="0.02"} 1\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_bucket{gen_ai_request_model="m",le="0.64"} 2\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_bucket{gen_ai_request_model="m",le="81.92"} 2\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_bucket{gen_ai_request_model="m",le="+Inf"} 3\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_sum{gen_ai_request_model="m"} 1000.515\n')
    expect(text).toContain('gen_ai_server_time_to_first_token_seconds_count{gen_ai_request_model="m"} 3\n')
    expect(text).toContain('gateway_cron_last_success_timestamp_seconds{job="rollup"} 100\n')
    expect(text).toContain('# HELP gateway_x a\\nb\n# TYPE gateway_x gauge\ngateway_x 3\n')
    // Every line is a comment or `name{labels} value` (the 0.0.4 text format).
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{.*\})? [-+0-9.eInfNa]+)$/)
  })

  it('caps the series of a family: values past the cap are counted as "other"', () => {
    const r = new MetricsRegistry()
    for (let i = 0; i < MAX_SERIES + 10; i++) r.inc('gateway_retries_total', [`k${i}`])
    const snap = r.take()
    expect(Object.keys(snap.counters.gateway_retries_total!).length).toBe(MAX_SERIES + 1)
    expect(snap.counters.gateway_retries_total!.other).toBe(10)
    expect(r.dirty).toBe(false)
  })

  it('merges what two isolates recorded in the MetricsStore: counters and histograms add up, gauges keep the maximum', async () => {
    const a = new MetricsRegistry()
    const b = new MetricsRegistry()
    a.inc('gateway_retries_total', ['failover'], 2)
    b.inc('gateway_retries_total', ['failover'], 3)
    b.inc('gateway_retries_total', ['key'])
    a.observe('gateway_cron_duration_seconds', ['rollup'], 0.02)
    b.observe('gateway_cron_duration_seconds', ['rollup'], 3)
    a.max('gateway_cron_last_success_timestamp_seconds', ['rollup'], 200)
    b.max('gateway_cron_last_success_timestamp_seconds', ['rollup'], 150)
    const store = metricsStore(env)
    await store.merge(a.take())
    await store.merge(b.take())
    const merged = await store.snapshot()
    expect(merged.counters.gateway_retries_total).toEqual({ failover: 5, key: 1 })
    expect(merged.gauges.gateway_cron_last_success_timestamp_seconds).toEqual({ rollup: 200 })
    const h = merged.histograms.gateway_cron_duration_seconds!.rollup!
    expect(h.at(-1)).toBe(2)
    expect(h.at(-2)).toBeCloseTo(3.02)
    // The same totals as merging the snapshots in one place.
    const text = renderPrometheus(merged)
    expect(text).toContain('gateway_retries_total{kind="failover"} 5\n')
    expect(text).toContain('gateway_cron_duration_seconds_bucket{job="rollup",le="0.05"} 1\n')
    expect(text).toContain('gateway_cron_duration_seconds_bucket{job="rollup",le="5"} 2\n')
  })

  it('keeps its merged state across a restart of the object', async () => {
    const store = metricsStore(env)
    await store.merge({ ...emptySnapshot(), counters: { gateway_wallet_overruns_total: { '': 4 } } })
    await store.merge({ ...emptySnapshot(), counters: { gateway_wallet_overruns_total: { '': 1 } } })
    // Drop the object's memory: the next read loads the families from its storage.
    await runInDurableObject(store, (instance: MetricsStore) => {
      ;(instance as unknown as { state: undefined }).state = undefined
    })
    expect((await store.snapshot()).counters.gateway_wallet_overruns_total).toEqual({ '': 5 })
  })

  it('a failed flush keeps the counts for the next one', async () => {
    metrics.inc('gateway_retries_total', ['key'], 7)
    const broken = { ...env, METRICS_STORE: { getByName: () => ({ merge: () => Promise.reject(new Error('down')) }) } } as unknown as Env
    await flushMetrics(broken)
    expect(metrics.dirty).toBe(true)
    await flushMetrics(env)
    expect(metrics.dirty).toBe(false)
    expect((await metricsStore(env).snapshot()).counters.gateway_retries_total).toEqual({ key: 7 })
  })
})
