/**
 * Bounded debt when a supplier misbehaves: it ignores the output limit it is sent, so each answer
 * costs more than its hold. MaxUserOverrun stops the user once today's overruns pass it (until a
 * top-up, with a system log row for root); MaxUserOpenRequests caps how many such answers can be
 * running at once. The ledger stays exact throughout.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, topUp } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

const BODY = { model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'Say hello' }] }

/** A supplier that writes 5,000 tokens whatever limit it was sent. */
const ignoresLimits = (gate?: Promise<void>) =>
  mockUpstream(async (_req, body) => {
    await gate
    const usage = { prompt_tokens: 10, completion_tokens: 5000, total_tokens: 5010 }
    return Response.json({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }],
      usage,
    })
  })

let upstream: ReturnType<typeof mockUpstream> | undefined
afterEach(async () => {
  upstream?.restore()
  await setOptions({ MaxUserOverrun: '2500000', MaxUserOpenRequests: '64' })
})

describe('bounded debt', () => {
  it('stops a user whose overruns today pass MaxUserOverrun until a top-up, and tells root', async () => {
    upstream = ignoresLimits()
    await createChannel({ key: 'ignores-limits' })
    await setPrice('gpt-4o', 1, 1)
    await setOptions({ MaxUserOverrun: '8000' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    // Each answer holds ~40 and costs 5,010: the second one takes today's overruns past 8,000.
    for (let i = 0; i < 2; i++) expect((await send('/v1/chat/completions', { key: token.key, json: BODY })).status).toBe(200)
    const stopped = await send('/v1/chat/completions', { key: token.key, json: BODY })
    expect(stopped.status).toBe(429)
    expect(stopped.json.error.message).toMatch(/Top up to continue/)
    expect(upstream.calls).toHaveLength(2)
    const l = await ledger(user.id)
    expect(100_000 - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(2 * 5010)
    const notice = await env.DB.prepare("SELECT content, quota FROM logs WHERE user_id = ? AND type = 4 AND content LIKE 'Stopped until%'").bind(user.id).all()
    expect(notice.results).toHaveLength(1)
    expect(notice.results[0]).toMatchObject({ quota: 0 })
    // A top-up lets the user in again.
    await topUp(user.id, 1000)
    expect((await send('/v1/chat/completions', { key: token.key, json: BODY })).status).toBe(200)
  })

  it('caps the requests a user has open at once at MaxUserOpenRequests', async () => {
    let release!: () => void
    upstream = ignoresLimits(new Promise<void>((resolve) => (release = resolve)))
    await createChannel({ key: 'ignores-limits-slow' })
    await setPrice('gpt-4o', 1, 1)
    await setOptions({ MaxUserOpenRequests: '3', MaxUserOverrun: '0' })
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const sent = Array.from({ length: 6 }, () => send('/v1/chat/completions', { key: token.key, json: BODY }))
    // The three refused answer at once; the three admitted wait at the supplier.
    for (let i = 0; i < 200 && upstream.calls.length < 3; i++) await new Promise((r) => setTimeout(r, 10))
    await new Promise((r) => setTimeout(r, 200))
    release()
    const results = await Promise.all(sent)
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
    expect(results.filter((r) => r.status === 429).every((r) => r.json.error.code === 'too_many_open_requests')).toBe(true)
    expect(upstream.calls).toHaveLength(3)
    const l = await ledger(user.id)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
    // Once they finished, the next request is admitted again.
    expect((await send('/v1/chat/completions', { key: token.key, json: BODY })).status).toBe(200)
  })
})
