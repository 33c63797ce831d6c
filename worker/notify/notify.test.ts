import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { createDb } from '../db/client'
import { notifyChannels, notifyDeliveries } from '../db/schema'
import { setupRoot, signedInUser, type TestClient } from '../test/client'
import { createChannel, setOptions } from '../test/factories'
import { routingSnapshot } from '../channels/routing-table'
import { remindLowQuota } from '../mail/quota-reminder'
import { nowSeconds } from '../lib/time'
import { channelDisabled, channelEnabled, disableKey, enableKey } from '../channels/status'
import { emitNotice } from './emit'
import { DELIVERY_KEEP_SECONDS, MAX_ATTEMPTS, QUICK_ATTEMPTS, RETRY_BASE_SECONDS, openDelivery, pruneDeliveries, retryDue } from './deliver'
import { announceDeadLetters } from './cron'
import { checkErrorRate } from './error-rate'
import { metricsStore } from '../lib/metrics/recorder'
import { labelKey } from '../lib/metrics/registry'
import { receiver } from '../test/notify-receiver'

let hooks: ReturnType<typeof receiver>
beforeEach(() => {
  hooks = receiver()
})
afterEach(() => vi.restoreAllMocks())

const ALL = ['channel.disabled', 'channel.enabled', 'key.disabled', 'cron.failed', 'ledger.dead_letter', 'wallet.overrun', 'payment.refused']

async function webhook(root: TestClient, extra: Record<string, unknown> = {}) {
  const res = await root.post('/api/notify/channel/', { name: 'ops', type: 'webhook', url: 'https://hooks.test/ops', secret: 'whsec-top-secret-1', events: ALL, ...extra })
  expect(res.status).toBe(200)
  return res.body.data
}

const deliveries = () => createDb(env.DB).select().from(notifyDeliveries).orderBy(notifyDeliveries.id)

describe('notify channels API', () => {
  it('never returns the secret: has_secret only, kept on update, refused to travel to a new URL', async () => {
    const root = await setupRoot()
    const created = await webhook(root)
    expect(created).toMatchObject({ name: 'ops', type: 'webhook', has_secret: true, events: ALL, enabled: true })
    expect(created).not.toHaveProperty('secret')
    const list = await root.get('/api/notify/channel/')
    expect(JSON.stringify(list.body)).not.toContain('whsec-top-secret-1')
    expect(list.body.data[0].has_secret).toBe(true)

    const kept = await root.put(`/api/notify/channel/${created.id}`, { name: 'ops2', type: 'webhook', url: 'https://hooks.test/ops', events: ['cron.failed'] })
    expect(kept.status).toBe(200)
    expect(kept.body.data).toMatchObject({ name: 'ops2', has_secret: true, events: ['cron.failed'] })
    const [row] = await createDb(env.DB).select().from(notifyChannels)
    expect(row!.secret).toBe('whsec-top-secret-1')

    const moved = await root.put(`/api/notify/channel/${created.id}`, { name: 'ops2', type: 'webhook', url: 'https://elsewhere.test/x', events: [] })
    expect(moved.status).toBe(400)
    expect(moved.body.success).toBe(false)
    const cleared = await root.put(`/api/notify/channel/${created.id}`, { name: 'ops2', type: 'webhook', url: 'https://elsewhere.test/x', secret: '', events: [] })
    expect(cleared.body.data.has_secret).toBe(false)
  })

  it('guards URLs and type fields, and is root only', async () => {
    const root = await setupRoot()
    const bad = async (body: Record<string, unknown>) => (await root.post('/api/notify/channel/', { name: 'x', events: [], ...body })).status
    expect(await bad({ type: 'webhook', url: 'http://169.254.169.254/latest' })).toBe(400)
    expect(await bad({ type: 'webhook', url: 'https://hooks.test/x?token=1' })).toBe(400)
    expect(await bad({ type: 'slack', url: '' })).toBe(400)
    expect(await bad({ type: 'telegram', config: {} })).toBe(400)
    expect(await bad({ type: 'email', config: { address: 'not-an-address' } })).toBe(400)
    expect(await bad({ type: 'webhook', url: 'https://hooks.test/x', events: ['no.such'] })).toBe(400)
    expect(await bad({ type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send?access_token=abc' })).toBe(200)
    expect(await bad({ type: 'wecom', url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc' })).toBe(200)
    expect(await bad({ type: 'email', config: { address: 'ops@example.com' } })).toBe(200)

    const admin = await signedInUser('notifyadmin')
    expect((await root.post('/api/user/manage', { id: admin.id, action: 'promote' })).status).toBe(200)
    expect((await admin.client.get('/api/notify/channel/')).status).toBe(403)
    expect((await admin.client.post('/api/notify/channel/', { name: 'x', type: 'webhook', url: 'https://hooks.test/x' })).status).toBe(403)
  })

  it('sends a test notice and lists it in the delivery log', async () => {
    const root = await setupRoot()
    const ch = await webhook(root)
    const res = await root.post(`/api/notify/channel/${ch.id}/test`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ ok: true, http_status: 200, error: '' })
    expect(hooks.got).toHaveLength(1)
    expect(hooks.got[0]!.body).toMatchObject({ event: 'test', severity: 'info' })
    expect(hooks.got[0]!.headers.get('x-signature')).toMatch(/^[0-9a-f]{64}$/)
    const log = await root.get(`/api/notify/channel/${ch.id}/deliveries`)
    expect(log.body.data.total_count).toBe(1)
    expect(log.body.data.data[0]).toMatchObject({ event: 'test', status: 'delivered', attempts: 1, http_status: 200 })
    expect((await root.delete(`/api/notify/channel/${ch.id}`)).status).toBe(200)
    expect(await deliveries()).toHaveLength(0)
  })
})

describe('emitting alerts', () => {
  it('deduplicates per (event, subject) within the cool-down; a recovery clears it', async () => {
    const root = await setupRoot()
    await webhook(root)
    const fire = () => emitNotice(env, { event: 'channel.disabled', subject: 'channel:5', text: 'down' })
    expect(await fire()).toBe(1)
    expect(await fire()).toBe(0)
    expect(await emitNotice(env, { event: 'channel.disabled', subject: 'channel:6', text: 'down' })).toBe(1)
    // A recovery is sent only for a problem that was notified, and then clears it.
    expect(await emitNotice(env, { event: 'channel.enabled', subject: 'channel:9', text: 'up' })).toBe(0)
    expect(await emitNotice(env, { event: 'channel.enabled', subject: 'channel:5', text: 'up' })).toBe(1)
    expect(await fire()).toBe(1)
    expect(hooks.got.map((g) => `${g.body.event} ${g.body.data.subject}`)).toEqual([
      'channel.disabled channel:5',
      'channel.disabled channel:6',
      'channel.enabled channel:5',
      'channel.disabled channel:5',
    ])
  })

  it('sends again once the cool-down has passed', async () => {
    const root = await setupRoot()
    await webhook(root)
    await setOptions({ NotifyCooldownMinutes: '1' })
    expect(await emitNotice(env, { event: 'cron.failed', subject: 'job:rollup', text: 'x' })).toBe(1)
    await env.DB.prepare('UPDATE notify_marks SET sent_at = sent_at - 61').run()
    expect(await emitNotice(env, { event: 'cron.failed', subject: 'job:rollup', text: 'x' })).toBe(1)
  })

  it('goes only to enabled channels subscribed to the event', async () => {
    const root = await setupRoot()
    await webhook(root, { events: ['cron.failed'] })
    await webhook(root, { name: 'off', enabled: false })
    expect(await emitNotice(env, { event: 'channel.disabled', subject: 'channel:1', text: 'x' })).toBe(0)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM notify_marks').first('n')).toBe(0)
    expect(hooks.got).toHaveLength(0)
  })

  it('channelDisabled and channelEnabled raise channel.disabled and its recovery', async () => {
    const root = await setupRoot()
    await webhook(root)
    await channelDisabled(env, { channelId: 42, status: 3, reason: 'invalid api key', requestId: 'req-1' })
    await channelEnabled(env, { channelId: 42, reason: 'retest passed' })
    expect(hooks.got.map((g) => g.body.event)).toEqual(['channel.disabled', 'channel.enabled'])
    expect(hooks.got[0]!.body).toMatchObject({ severity: 'warning', data: { channel_id: 42, reason: 'invalid api key', request_id: 'req-1', subject: 'channel:42' } })
  })

  it('enableKey raises key.enabled only for a key whose key.disabled was sent, and clears its mark', async () => {
    const root = await setupRoot()
    await webhook(root, { events: ['key.disabled', 'key.enabled'] })
    const ch = await createChannel({ key: 'sk-pool-notice' })
    const key = { channelId: ch, keyHash: 'a1b2c3d4' }
    expect((await disableKey(env, { ...key, reason: 'invalid api key' })).keyDisabled).toBe(true)
    expect(await enableKey(env, { ...key, reason: 'retest passed' })).toBe(true)
    expect(await enableKey(env, { ...key, reason: 'again' })).toBe(false)
    // Disabled while nobody listened to key.disabled: no mark, so no recovery either.
    await env.DB.prepare("INSERT INTO channel_key_states (channel_id, key_hash, status, reason, changed_at, retest_at, retests) VALUES (?, 'e5f6', 3, 'x', 0, 0, 0)").bind(ch).run()
    expect(await enableKey(env, { channelId: ch, keyHash: 'e5f6', reason: 'enabled by root' })).toBe(true)
    // The mark is gone: the next failure of the first key is announced again.
    await disableKey(env, { ...key, reason: 'quota exceeded' })
    expect(hooks.got.map((g) => `${g.body.event} ${g.body.data.subject}`)).toEqual([
      `key.disabled channel:${ch}:key:a1b2c3d4`,
      `key.enabled channel:${ch}:key:a1b2c3d4`,
      `key.disabled channel:${ch}:key:a1b2c3d4`,
    ])
    expect(hooks.got[1]!.body).toMatchObject({ severity: 'info', data: { channel_id: ch, key_hash: 'a1b2c3d4', reason: 'retest passed' } })
  })

  it('model.unavailable names the models a disabled channel leaves with no enabled channel', async () => {
    const root = await setupRoot()
    await webhook(root, { events: ['model.unavailable'] })
    const solo = await createChannel({ key: 'solo', models: 'solo-model,shared-model,prefix-*' })
    await createChannel({ key: 'other', models: 'shared-model' })
    await env.DB.prepare('UPDATE channels SET status = 3 WHERE id = ?').bind(solo).run()
    await routingSnapshot.invalidate(env)
    await channelDisabled(env, { channelId: solo, status: 3, reason: 'invalid api key' })
    expect(hooks.got.map((g) => g.body.event)).toEqual(['model.unavailable'])
    expect(hooks.got[0]!.body).toMatchObject({ severity: 'error', data: { channel_id: solo, models: ['solo-model'], count: 1 } })
    expect(hooks.got[0]!.body.text).toContain('solo-model')
  })

  it('user.balance_low goes out once per user per cool-down when a charge crosses the reminder threshold', async () => {
    const root = await setupRoot()
    await webhook(root, { events: ['user.balance_low'] })
    await setOptions({ QuotaRemindThreshold: '1000' })
    expect(await remindLowQuota(env, { userId: 7, before: 1500, after: 900 })).toBeNull() // no SMTP: no mail, but the alert
    await remindLowQuota(env, { userId: 7, before: 950, after: 0 })
    await remindLowQuota(env, { userId: 8, before: 2000, after: 2100 })
    expect(hooks.got.map((g) => [g.body.event, g.body.data.subject, g.body.data.kind])).toEqual([['user.balance_low', 'user:7', 'low']])
  })

  it('relay.error_rate compares the merged relay counters with the last cron run', async () => {
    const root = await setupRoot()
    await webhook(root, { events: ['relay.error_rate'] })
    await setOptions({ AlertErrorRatePercent: '30', AlertErrorRateMinRequests: '10' })
    const served = (ok: number, failed: number) =>
      metricsStore(env).merge({
        counters: { gateway_requests_total: { [labelKey(['m', '1', '1', 'openai', '2xx', ''])]: ok, [labelKey(['m', '1', '1', 'openai', '5xx', 'upstream_error'])]: failed } },
        gauges: {},
        histograms: {},
      })
    await served(50, 1)
    expect(await checkErrorRate(env, 1_000_000)).toBeUndefined() // the first look only records
    await served(5, 4) // 9 requests: under the minimum
    expect(await checkErrorRate(env, 1_300_000)).toEqual({ requests: 9, errors: 4, share: 4 / 9 })
    await served(60, 5) // 7.7 %: under the threshold
    expect((await checkErrorRate(env, 1_600_000))?.requests).toBe(65)
    expect(hooks.got).toHaveLength(0)
    await served(7, 5) // 5 of 12 = 41.7 %
    expect(await checkErrorRate(env, 1_900_000)).toEqual({ requests: 12, errors: 5, share: 5 / 12 })
    expect(hooks.got.map((g) => g.body.event)).toEqual(['relay.error_rate'])
    expect(hooks.got[0]!.body).toMatchObject({ severity: 'error', data: { requests: 12, errors: 5, window_seconds: 300, threshold_percent: 30 } })
  })

  it('retries with backoff, records every attempt, and fails after the last one', async () => {
    const root = await setupRoot()
    await webhook(root)
    hooks.answerWith(500)
    const before = nowSeconds()
    await emitNotice(env, { event: 'wallet.overrun', subject: 'user:3', text: 'over' })
    let [row] = await deliveries()
    expect(row).toMatchObject({ status: 'pending', attempts: QUICK_ATTEMPTS, httpStatus: 500 })
    expect(row!.error).toContain('HTTP 500')
    expect(row!.error).not.toContain('hooks.test/ops')
    expect(row!.nextAt).toBeGreaterThanOrEqual(before + RETRY_BASE_SECONDS)
    expect(hooks.got).toHaveLength(QUICK_ATTEMPTS)

    // Not due yet: the cron leaves it alone.
    expect((await retryDue(env)).retried).toBe(0)
    await env.DB.prepare('UPDATE notify_deliveries SET next_at = 0').run()
    expect(await retryDue(env)).toEqual({ retried: 1, delivered: 0 })
    ;[row] = await deliveries()
    expect(row).toMatchObject({ status: 'pending', attempts: QUICK_ATTEMPTS + 1 })
    // The delay doubles.
    expect(row!.nextAt).toBeGreaterThanOrEqual(nowSeconds() + 2 * RETRY_BASE_SECONDS - 1)

    while ((await deliveries())[0]!.status === 'pending') {
      await env.DB.prepare('UPDATE notify_deliveries SET next_at = 0').run()
      await retryDue(env)
    }
    ;[row] = await deliveries()
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    expect(hooks.got).toHaveLength(MAX_ATTEMPTS)
  })

  it('the cron takes over a delivery whose emitter never recorded an attempt, after a grace period', async () => {
    const root = await setupRoot()
    await webhook(root)
    const [channel] = await createDb(env.DB).select().from(notifyChannels)
    const notice = { event: 'cron.failed' as const, at: new Date().toISOString(), severity: 'error' as const, text: 'x', data: {} }
    await openDelivery(env, channel!, notice, 'job:lost')
    expect((await retryDue(env)).retried).toBe(0)
    await env.DB.prepare('UPDATE notify_deliveries SET next_at = next_at - 121').run()
    expect(await retryDue(env)).toEqual({ retried: 1, delivered: 1 })
    expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('prunes finished deliveries after 30 days, never pending ones', async () => {
    const root = await setupRoot()
    const ch = await webhook(root)
    const old = nowSeconds() - DELIVERY_KEEP_SECONDS - 60
    await env.DB.prepare(
      "INSERT INTO notify_deliveries (channel_id, event, status, created_at, updated_at) VALUES (?, 'cron.failed', 'delivered', ?, ?), (?, 'cron.failed', 'failed', ?, ?), (?, 'cron.failed', 'pending', ?, ?), (?, 'cron.failed', 'delivered', ?, ?)"
    )
      .bind(ch.id, old, old, ch.id, old, old, ch.id, old, old, ch.id, nowSeconds(), nowSeconds())
      .run()
    expect(await pruneDeliveries(env)).toBe(2)
    expect((await deliveries()).map((d) => d.status)).toEqual(['pending', 'delivered'])
  })

  it('a retry that succeeds marks the delivery delivered', async () => {
    const root = await setupRoot()
    await webhook(root)
    hooks.answerWith(503)
    await emitNotice(env, { event: 'cron.failed', subject: 'job:x', text: 'x' })
    hooks.answerWith(200)
    await env.DB.prepare('UPDATE notify_deliveries SET next_at = 0').run()
    expect(await retryDue(env)).toEqual({ retried: 1, delivered: 1 })
    expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: QUICK_ATTEMPTS + 1, httpStatus: 200, error: '' })
  })

  it('announces dead letters parked after the first look, once per cool-down', async () => {
    const root = await setupRoot()
    await webhook(root)
    const park = (key: string) =>
      env.DB.prepare('INSERT INTO wallet_dead_letters (user_id, wallet_key, payload, error, created_at) VALUES (1, ?, ?, ?, 0)').bind(key, '{}', 'boom').run()
    await park('old')
    expect(await announceDeadLetters(env)).toBe(0)
    await park('a')
    await park('b')
    expect(await announceDeadLetters(env)).toBe(2)
    expect(await announceDeadLetters(env)).toBe(0)
    expect(hooks.got.map((g) => g.body.event)).toEqual(['ledger.dead_letter'])
    expect(hooks.got[0]!.body.data).toMatchObject({ new_rows: 2, waiting: 3 })
  })
})
