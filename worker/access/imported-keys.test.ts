/**
 * Keys imported from one-api / one-hub authenticate by lookup without this gateway's signature —
 * only when the token row is marked imported, and only in the two shapes those projects issued.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { resetIsolateState } from '../cache/isolate'
import { createChannel, createUser, ledger, send, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { looksLikeImportedKey } from '../../shared/contract/imported-keys'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
  resetIsolateState()
})
afterEach(() => upstream.restore())

const ONE_API_KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl'
const ONE_HUB_SIGNED_KEY = 'Xk3pQ9rT2vB8nM4_q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c'
const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }

async function insertToken(userId: number, key: string, imported: boolean) {
  await env.DB.prepare(
    `INSERT INTO tokens (user_id, key, name, status, created_time, expired_time, remain_quota, unlimited_quota, setting, imported)
     VALUES (?, ?, 'imported', 1, 0, -1, 0, 1, '{}', ?)`
  )
    .bind(userId, key, imported ? 1 : 0)
    .run()
}

describe('imported API keys', () => {
  it('recognises the one-api and one-hub shapes only', () => {
    expect(looksLikeImportedKey(ONE_API_KEY)).toBe(true)
    expect(looksLikeImportedKey(ONE_HUB_SIGNED_KEY)).toBe(true)
    expect(looksLikeImportedKey(ONE_API_KEY.slice(1))).toBe(false)
    expect(looksLikeImportedKey(ONE_HUB_SIGNED_KEY.replace('_', 'x'))).toBe(false)
    expect(looksLikeImportedKey('a'.repeat(47) + '!')).toBe(false)
  })

  it('work on the relay without the gateway signature, with or without sk-, and are billed', async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 1_000_000 })
    await insertToken(user.id, ONE_API_KEY, true)
    await insertToken(user.id, ONE_HUB_SIGNED_KEY, true)
    expect((await send('/v1/chat/completions', { key: `sk-${ONE_API_KEY}`, json: chat })).status).toBe(200)
    expect((await send('/v1/chat/completions', { key: ONE_HUB_SIGNED_KEY, json: chat })).status).toBe(200)
    const after = await ledger(user.id)
    expect(after.consumeLogs).toBe(2)
    expect(after.quota).toBe(1_000_000 - after.loggedQuota)
    expect(after.loggedQuota).toBeGreaterThan(0)
  })

  it('refuses an unsigned key whose row is not marked imported, and unknown keys', async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 1_000_000 })
    await insertToken(user.id, ONE_API_KEY, true)
    const native = 'Q'.repeat(48)
    await insertToken(user.id, native, false)
    const refused = await send('/v1/chat/completions', { key: `sk-${native}`, json: chat })
    expect(refused.status).toBe(401)
    expect((await send('/v1/chat/completions', { key: `sk-${'Z'.repeat(48)}`, json: chat })).status).toBe(401)
    expect(upstream.calls).toHaveLength(0)
  })
})
