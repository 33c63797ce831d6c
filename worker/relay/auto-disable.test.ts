/**
 * Echo-triggered auto-disable (security finding 6): upstream 400/404/422 bodies that echo the
 * client's input never match the disable keywords, and a channel is disabled only after
 * AutoDisableFailureThreshold (default 3) consecutive auth/billing failures from at least two
 * different users (or a channel test), so one client cannot take a shared channel out for everyone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

const ECHO = 'Permission denied'
const echoed = (status: number, message: string) =>
  new Response(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }), { status, headers: { 'content-type': 'application/json' } })

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream((_req, body, key) => {
    if (key !== 'echo') return undefined
    const role = body.messages?.[0]?.role ?? ''
    if (body.model === 'gpt-4o-mini') return echoed(404, `The model \`${role}\` does not exist or you do not have access to it.`)
    if (body.user === 'u422') return echoed(422, `Unprocessable: ${role}`)
    return echoed(400, `Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`)
  })
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gpt-4o-mini', 0.1, 0.2)
  await setOptions({ AutomaticDisableChannelEnabled: 'true', RetryCooldownSeconds: '0', RetryTimes: '1' })
})
afterEach(() => upstream.restore())

const status = async (id: number) => (await env.DB.prepare('SELECT status FROM channels WHERE id = ?').bind(id).first<{ status: number }>())!.status
const chat = (model = 'gpt-4o', extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: ECHO, content: 'x' }], ...extra })

async function key() {
  const user = await createUser({ quota: 1_000_000 })
  return (await createToken(user.id)).key
}

describe('auto-disable', () => {
  it('keeps a channel enabled when 400, 404 and 422 bodies echo a disable keyword the client sent', async () => {
    const channel = await createChannel({ key: 'echo' })
    const k = await key()
    for (let i = 0; i < 5; i++) {
      expect((await send('/v1/chat/completions', { key: k, json: chat() })).status).toBe(400)
      expect((await send('/v1/chat/completions', { key: k, json: chat('gpt-4o-mini') })).status).toBe(404)
      expect((await send('/v1/chat/completions', { key: k, json: chat('gpt-4o', { user: 'u422' }) })).status).toBe(400)
    }
    expect(upstream.count('echo')).toBeGreaterThanOrEqual(15)
    expect(await status(channel)).toBe(1)
  })

  it('disables a channel only after the threshold of auth failures (default 3) from two users', async () => {
    const bad = await createChannel({ key: 'mock-401', priority: 5 })
    await createChannel({ key: 'good' })
    const [a, b] = [await key(), await key()]
    const hi = chat('gpt-4o', { messages: [{ role: 'user', content: 'hi' }] })
    for (const k of [a, a]) {
      expect((await send('/v1/chat/completions', { key: k, json: hi })).status).toBe(200)
      expect(await status(bad)).toBe(1)
    }
    expect((await send('/v1/chat/completions', { key: b, json: hi })).status).toBe(200)
    expect(await status(bad)).toBe(3)
    expect(upstream.count('mock-401')).toBe(3)
  })

  it("one user's failures alone never disable a shared channel", async () => {
    const bad = await createChannel({ key: 'mock-401', priority: 5 })
    await createChannel({ key: 'good' })
    const k = await key()
    for (let i = 0; i < 6; i++) {
      expect((await send('/v1/chat/completions', { key: k, json: chat('gpt-4o', { messages: [{ role: 'user', content: 'hi' }] }) })).status).toBe(200)
    }
    expect(upstream.count('mock-401')).toBe(6)
    expect(await status(bad)).toBe(1)
  })

  it('honours a threshold of 1 (still needing a second user)', async () => {
    await setOptions({ AutoDisableFailureThreshold: '1' })
    const bad = await createChannel({ key: 'mock-401', priority: 5 })
    await createChannel({ key: 'good' })
    const hi = chat('gpt-4o', { messages: [{ role: 'user', content: 'hi' }] })
    expect((await send('/v1/chat/completions', { key: await key(), json: hi })).status).toBe(200)
    expect(await status(bad)).toBe(1)
    expect((await send('/v1/chat/completions', { key: await key(), json: hi })).status).toBe(200)
    expect(await status(bad)).toBe(3)
  })
})
