/**
 * Test data written straight to D1 (then the caches are invalidated as the real APIs do):
 * users, tokens with real signed keys, channels and prices. Also a helper that runs a request
 * through the Worker and waits for its background work (settlement, reports).
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { priceSnapshot } from '../billing/pricing'
import { routingSnapshot } from '../channels/routing-table'
import { releaseLeases } from '../billing/wallet-lease'
import { generateTokenKey } from '../access/token-key'
import { getTokenSecret, saveOptions } from '../settings/store'
import { walletOf } from '../wallet/wallet-client'
import type { PlanTerms } from '../../shared/contract/plans'

let seq = 0

export async function createUser(opts: { quota?: number; group?: string; role?: number; username?: string } = {}) {
  const username = opts.username ?? `user${++seq}`
  const row = await env.DB.prepare(
    `INSERT INTO users (username, password, display_name, role, "group", quota, aff_code, created_time) VALUES (?, '', ?, ?, ?, ?, ?, ?) RETURNING id`
  )
    .bind(username, username, opts.role ?? 1, opts.group ?? 'default', opts.quota ?? 0, `aff${seq}${Date.now()}`, Math.floor(Date.now() / 1000))
    .first<{ id: number }>()
  return { id: row!.id, username }
}

export async function createToken(
  userId: number,
  opts: { remain?: number; unlimited?: boolean; name?: string; group?: string; models?: string[]; ips?: string[]; expired?: number; chatCache?: boolean } = {}
) {
  const key = await generateTokenKey(await getTokenSecret(env))
  const setting = {
    limits: {
      limit_model_setting: { enabled: Boolean(opts.models), models: opts.models ?? [] },
      limits_ip_setting: { enabled: Boolean(opts.ips), whitelist: opts.ips ?? [] },
    },
  }
  const row = await env.DB.prepare(
    `INSERT INTO tokens (user_id, key, name, status, created_time, expired_time, remain_quota, unlimited_quota, "group", chat_cache, setting)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
  )
    .bind(
      userId,
      key,
      opts.name ?? 'test-token',
      Math.floor(Date.now() / 1000),
      opts.expired ?? -1,
      opts.remain ?? 0,
      opts.unlimited === false ? 0 : 1,
      opts.group ?? '',
      opts.chatCache ? 1 : 0,
      JSON.stringify(setting)
    )
    .first<{ id: number }>()
  return { id: row!.id, key: `sk-${key}` }
}

export async function createChannel(opts: {
  key: string
  type?: number
  models?: string
  group?: string
  priority?: number
  weight?: number
  baseUrl?: string
  mapping?: Record<string, string>
  other?: string
  name?: string
  tag?: string
}) {
  const row = await env.DB.prepare(
    `INSERT INTO channels (type, key, status, name, weight, priority, "group", models, base_url, other, model_mapping, tag, created_time)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
  )
    .bind(
      opts.type ?? 1,
      opts.key,
      opts.name ?? `channel-${opts.key}`,
      opts.weight ?? 1,
      opts.priority ?? 0,
      opts.group ?? 'default',
      opts.models ?? 'gpt-4o,gpt-4o-mini',
      opts.baseUrl ?? 'https://upstream.test',
      opts.other ?? '',
      opts.mapping ? JSON.stringify(opts.mapping) : '',
      opts.tag ?? '',
      Math.floor(Date.now() / 1000)
    )
    .first<{ id: number }>()
  await routingSnapshot.invalidate(env)
  return row!.id
}

export async function setPrice(model: string, input: number, output: number, type: 'tokens' | 'times' = 'tokens') {
  await env.DB.prepare('INSERT OR REPLACE INTO prices (model, type, channel_type, input, output) VALUES (?, ?, 1, ?, ?)').bind(model, type, input, output).run()
  await priceSnapshot.invalidate(env)
}

export const setOptions = (values: Record<string, string>) => saveOptions(env, values)

/** Run a request through the Worker and wait for everything it scheduled with waitUntil. */
export async function send(path: string, init: RequestInit & { key?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers)
  if (init.key) headers.set('authorization', `Bearer ${init.key}`)
  let body = init.body
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(init.json)
  }
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(`http://gateway.test${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body }), env, ctx)
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

export const wallet = (userId: number) => walletOf(env, userId)

/** A subscription row as the plan registry writes it (worker/plans/), then the registry's syncUser call; its id. */
export async function createSubscription(userId: number, terms: Partial<PlanTerms>, at: { startsAt?: number; expiresAt?: number } = {}) {
  const full: PlanTerms = { name: 'plan', windows: [], models: [], group: '', channel_tags: [], allow_balance_fallback: true, priority: 0, ...terms }
  const row = await env.DB.prepare('INSERT INTO subscriptions (user_id, plan_id, terms, status, key, starts_at, expires_at) VALUES (?, 1, ?, 1, ?, ?, ?) RETURNING id')
    .bind(userId, JSON.stringify(full), crypto.randomUUID(), at.startsAt ?? 0, at.expiresAt ?? 0)
    .first<{ id: number }>()
  await wallet(userId).syncUser({ userId })
  return row!.id
}

/** Credit a user through the wallet as a top-up would (one log row, its own idempotency key). */
export async function topUp(userId: number, amount: number) {
  const result = await wallet(userId).credit({
    userId,
    amount,
    key: `test-topup:${crypto.randomUUID()}`,
    log: { type: 1, createdAt: Math.floor(Date.now() / 1000), content: 'test top-up' },
  })
  if (!result.ok) throw new Error(`top-up failed: ${result.reason}`)
  return result.userQuota
}

/** Flush a user's wallet and read the D1 truth used by the invariants. */
export async function ledger(userId: number) {
  // Credit leases held by this isolate go back first, so `reserved` means in-flight requests only.
  await releaseLeases(env)
  await wallet(userId).flush()
  const user = await env.DB.prepare('SELECT quota, used_quota, request_count FROM users WHERE id = ?')
    .bind(userId)
    .first<{ quota: number; used_quota: number; request_count: number }>()
  const logs = await env.DB.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ? AND type = 2').bind(userId).first<{ n: number; q: number }>()
  return { ...user!, consumeLogs: logs!.n, loggedQuota: logs!.q }
}

/** `count` log rows of one user, `step` seconds apart from `start`, in one statement. */
export async function seedLogs(count: number, opts: { start?: number; step?: number; userId?: number; username?: string; type?: number } = {}) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO logs (user_id, created_at, type, username, model_name, quota, content, metadata) SELECT ?, ? + i * ?, ?, ?, 'gpt-4o', i, 'row ' || i, '{"n":1}' FROM n`
  )
    .bind(count, opts.userId ?? 7, opts.start ?? Math.floor(Date.now() / 1000) - 86400, opts.step ?? 1, opts.type ?? 2, opts.username ?? 'seeded')
    .run()
}
