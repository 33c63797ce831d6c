/**
 * Supplier error text through the relay (security finding 14): a channel-side refusal reaches the
 * client and the user's error log as a generic message with the supplier code and the request id;
 * the supplier's text (redacted) is kept for admins only; errors about the client's own request
 * keep their (redacted) text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setupRoot, signedInUser } from '../test/client'
import { createChannel, ledger, send, setOptions, setPrice, topUp } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

const LEAK = 'Incorrect API key provided: sk-proj-abcDEF123456ghiJKL. Organization org-ACME-internal, see https://ops.acme.internal'
const reply = (status: number, message: string, code: string | null) =>
  new Response(JSON.stringify({ error: { message, type: 'invalid_request_error', code } }), { status, headers: { 'content-type': 'application/json' } })

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream((_req, body, key) => {
    if (key !== 'leaky') return undefined
    return body.user === 'bad-param' ? reply(400, "Invalid value for 'user' near sk-proj-abcDEF123456ghiJKL", null) : reply(401, LEAK, 'invalid_api_key')
  })
  await setPrice('gpt-4o', 1, 1)
  await setOptions({ RetryTimes: '0', RetryCooldownSeconds: '0' })
})
afterEach(() => upstream.restore())

describe('supplier error text through the relay', () => {
  it('answers a channel-side refusal generically and keeps the supplier text for admins', async () => {
    const root = await setupRoot()
    await createChannel({ key: 'leaky' })
    const { client, id } = await signedInUser('errviewer')
    await topUp(id, 1_000_000)
    const key = (await client.post('/api/token/', { name: 'k', unlimited_quota: true })).body.data.key as string

    const res = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    expect(res.status).toBe(503)
    expect(res.json.error.code).toBe('invalid_api_key')
    expect(res.json.error.message).toContain('invalid_api_key')
    expect(res.json.error.message).toContain(res.headers.get('x-request-id'))
    for (const leak of ['ACME', 'abcDEF123456', 'ops.acme']) expect(res.text).not.toContain(leak)

    const bad = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', user: 'bad-param', messages: [{ role: 'user', content: 'hi' }] } })
    expect(bad.status).toBe(400)
    expect(bad.json.error.message).toContain("Invalid value for 'user' near sk-[redacted]")

    await ledger(id)
    const mine = (await client.get('/api/log/self?type=5')).body.data.data as { content: string; metadata: Record<string, unknown> }[]
    expect(mine).toHaveLength(2)
    for (const row of mine) {
      expect(JSON.stringify(row)).not.toContain('ACME')
      expect(row.metadata.tried).toBeUndefined()
      expect(row.metadata.upstream_error).toBeUndefined()
    }
    const seen = (await root.get('/api/log/?type=5&username=errviewer')).body.data.data as { metadata: Record<string, any> }[]
    const detail = seen.find((l) => l.metadata.status === 401)!
    expect(detail.metadata.upstream_error).toContain('org-ACME-internal')
    expect(detail.metadata.upstream_error).not.toContain('abcDEF123456')
    expect(detail.metadata.tried).toHaveLength(1)
  })
})
