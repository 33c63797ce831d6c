/**
 * Bounded exposure on GET /v1/realtime, against a mock supplier that obeys the limits it is sent:
 * each response holds its worst case before it is forwarded (and goes up with the output limit the
 * hold covers), a client that leaves mid-response pays for the deltas it received, parallel
 * sessions on one small balance never take it below zero, input transcription is charged with its
 * own row, a refused hold answers the client with an error event and never reaches the supplier,
 * a subscriber's responses draw from the plan (one limited to channel tags, on a tagged channel only), and a session holds the key's concurrency slot and
 * one of its realtime sessions until it closes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { computeQuota } from '../../billing/formula'
import { getPriceTable, resolvePrice } from '../../billing/pricing'
import { createChannel, createSubscription, createToken, createUser, ledger, setOptions, setPrice, wallet } from '../../test/factories'
import { mockRealtime, openRealtime, type UpstreamSession } from '../../test/realtime-mock'

const MODEL = 'gpt-4o-realtime-preview'
/** One second of pcm16 audio at 24 kHz, base64. */
const SECOND_OF_AUDIO = btoa(String.fromCharCode(...new Uint8Array(48_000)))
let script: (event: any, session: UpstreamSession) => void
let upstream: ReturnType<typeof mockRealtime>

/** A supplier that obeys its limits: each response produces its whole output limit, and reports its input honestly. */
function obedient(event: any, session: UpstreamSession) {
  if (event.type !== 'response.create') return
  const id = `resp_${session.received.filter((e) => e.type === 'response.create').length}`
  const limit = typeof event.response?.max_output_tokens === 'number' ? event.response.max_output_tokens : 4096
  const text = session.received.filter((e) => e.type === 'conversation.item.create').reduce((n, e) => n + JSON.stringify(e.item).length, 0)
  const input = Math.ceil(text / 4) + 8
  session.send({ type: 'response.created', response: { id, status: 'in_progress' } })
  session.send({ type: 'response.output_text.delta', response_id: id, delta: 'word '.repeat(10) })
  session.send({
    type: 'response.done',
    response: {
      id,
      status: 'incomplete',
      usage: { input_tokens: input, output_tokens: limit, input_token_details: { text_tokens: input }, output_token_details: { text_tokens: limit } },
    },
  })
}

beforeEach(async () => {
  script = obedient
  upstream = mockRealtime(MODEL, (event, session) => script(event, session))
  await setPrice(MODEL, 2.5, 10)
  await createChannel({ key: 'sk-realtime', models: MODEL })
})
afterEach(() => upstream.restore())

const open = (key: string) => openRealtime({ authorization: `Bearer ${key}` }, `?model=${MODEL}`)
const sent = (type: string) => upstream.saw.frames.map((f) => JSON.parse(f)).filter((e) => e.type === type)
const consumeRows = (userId: number) =>
  env.DB.prepare('SELECT model_name, prompt_tokens, completion_tokens, quota, content, metadata FROM logs WHERE user_id = ? AND type = 2 ORDER BY id').bind(userId).all<any>()

describe('realtime holds', () => {
  it('forwards response.create with the output limit its hold covers, and numbers for "inf"', async () => {
    // 60,000 units: the first response's input and 4,096 output tokens (about 41,600 units) fit. The
    // second's input then holds the first answer too (about 4,360 tokens, 10,900 units), and what
    // is left pays for under 900 output tokens.
    const user = await createUser({ quota: 60_000 })
    const token = await createToken(user.id)
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'session.update', session: { max_response_output_tokens: 'inf' } }))
    s.ws!.send(JSON.stringify({ type: 'response.create', response: { max_output_tokens: 'inf' } }))
    await s.next('response.done')
    s.ws!.send(JSON.stringify({ type: 'response.create' }))
    await s.next('response.done')
    expect(sent('session.update')[0].session.max_response_output_tokens).toBe(4096)
    const [first, second] = sent('response.create').map((e) => e.response.max_output_tokens)
    expect(first).toBe(4096)
    expect(second).toBeGreaterThan(0)
    expect(second).toBeLessThan(900)
    await s.close()
    const l = await ledger(user.id)
    expect(l.quota).toBeGreaterThanOrEqual(0)
    expect(60_000 - l.quota).toBe(l.loggedQuota)
  })

  it('answers a refused hold with an error event, and the supplier never sees that response.create', async () => {
    const user = await createUser({ quota: 20_000 })
    const token = await createToken(user.id)
    const s = await open(token.key)
    // The client starts responses itself (no standing hold for server-started ones).
    s.ws!.send(JSON.stringify({ type: 'session.update', session: { turn_detection: null } }))
    // About 30,000 tokens of conversation: its input alone (75,000 units) is more than the balance.
    s.ws!.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x'.repeat(30_000) }] } }))
    s.ws!.send(JSON.stringify({ type: 'response.create', event_id: 'evt_client_1' }))
    const err = await s.next('error')
    expect(err.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota', event_id: 'evt_client_1' })
    expect(upstream.saw.frames.map((f) => JSON.parse(f).type)).toEqual(['session.update', 'conversation.item.create'])
    await s.close()
    const l = await ledger(user.id)
    expect(l).toMatchObject({ quota: 20_000, consumeLogs: 0 })
  })

  it('charges a client that leaves mid-response for the deltas it received, cancels upstream and releases the hold', async () => {
    script = (event, session) => {
      if (event.type !== 'response.create') return
      session.send({ type: 'response.created', response: { id: 'resp_long', status: 'in_progress' } })
      for (let i = 0; i < 5; i++) {
        session.send({ type: 'response.audio_transcript.delta', response_id: 'resp_long', delta: 'Once upon a time, ' })
        session.send({ type: 'response.audio.delta', response_id: 'resp_long', delta: SECOND_OF_AUDIO })
      }
      session.send({ type: 'response.text.delta', response_id: 'resp_long', delta: 'last' })
      // …and the answer goes on: no response.done before the client leaves.
    }
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'response.create' }))
    await s.next('response.text.delta')
    await s.close()
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
    const [row] = (await consumeRows(user.id)).results
    // 5 s of assistant audio at 20 tokens a second, plus the transcript's text tokens.
    expect(row.completion_tokens).toBeGreaterThanOrEqual(100)
    expect(row.completion_tokens).toBeLessThan(150)
    expect(row.content).toBe('client disconnected; billed for what was generated')
    const price = resolvePrice(await getPriceTable(env), MODEL)!
    expect(row.quota).toBe(computeQuota(price, { promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens }, 1).quota)
    expect(sent('response.cancel')).toEqual([{ type: 'response.cancel', response_id: 'resp_long' }])
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
  })

  it('50 parallel sessions on one floor of balance: never below zero, every unit logged', async () => {
    // One response's floor here is 256 + 256 tokens = 3,200 units; 4,000 covers one small answer.
    const user = await createUser({ quota: 4_000 })
    const tokens = await Promise.all(Array.from({ length: 50 }, () => createToken(user.id)))
    const outcomes = await Promise.all(
      tokens.map(async (t) => {
        const s = await open(t.key)
        if (s.res.status !== 101) return 'refused at upgrade'
        s.ws!.send(JSON.stringify({ type: 'session.update', session: { turn_detection: null } }))
        s.ws!.send(
          JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me a very long story.' }] } })
        )
        s.ws!.send(JSON.stringify({ type: 'response.create' }))
        const outcome = await Promise.race([s.next('response.done').then(() => 'served'), s.next('error').then(() => 'refused'), s.closed.then(() => 'closed')])
        await s.close()
        return outcome
      })
    )
    expect(outcomes.filter((o) => o === 'served').length).toBeGreaterThanOrEqual(1)
    const l = await ledger(user.id)
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
    expect(l.quota).toBeGreaterThanOrEqual(0)
    expect(4_000 - l.quota).toBe(l.loggedQuota)
  })

  it('a subscriber with no balance is served from the plan: the session opens and each response row names the subscription', async () => {
    const user = await createUser({ quota: 0 })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', quota: 200_000 }], allow_balance_fallback: false })
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'response.create', response: { max_output_tokens: 100 } }))
    await s.next('response.done')
    await s.close()
    const l = await ledger(user.id)
    expect(l.quota).toBe(0)
    const rows = await env.DB.prepare('SELECT quota, subscription_id FROM logs WHERE user_id = ? AND type = 2').bind(user.id).all<{ quota: number; subscription_id: number }>()
    expect(rows.results).toHaveLength(1)
    expect(rows.results[0]!.subscription_id).toBe(sub)
    expect(rows.results[0]!.quota).toBeGreaterThan(0)
  })

  it('a plan limited to channel tags sends the session to a tagged channel, and covers nothing when none serves the model', async () => {
    await createChannel({ key: 'sk-premium', models: MODEL, tag: 'premium' })
    const user = await createUser({ quota: 0 })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', quota: 200_000 }], channel_tags: ['premium'], allow_balance_fallback: false })
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'response.create', response: { max_output_tokens: 100 } }))
    await s.next('response.done')
    await s.close()
    expect(upstream.saw.auth).toBe('Bearer sk-premium')
    expect((await ledger(user.id)).quota).toBe(0)
    const rows = await env.DB.prepare('SELECT subscription_id FROM logs WHERE user_id = ? AND type = 2').bind(user.id).all<{ subscription_id: number }>()
    expect(rows.results).toEqual([{ subscription_id: sub }])
    // A plan whose tag no realtime channel carries: nothing covers the session, and the plan forbids the balance.
    const other = await createUser({ quota: 0 })
    const otherToken = await createToken(other.id)
    await createSubscription(other.id, { windows: [{ period: 'day', quota: 200_000 }], channel_tags: ['gold'], allow_balance_fallback: false })
    const refused = await open(otherToken.key)
    expect(refused.ws).toBeNull()
    expect(refused.res.status).toBe(429)
    expect(((await refused.res.json()) as { error: { code: string } }).error.code).toBe('plan_quota_exceeded')
  })

  it('holds the response the server would start by itself before forwarding the audio, and caps it at what the hold covers', async () => {
    script = (event, session) => {
      if (event.type !== 'input_audio_buffer.append' || session.received.filter((e) => e.type === 'input_audio_buffer.append').length !== 2) return
      // Server voice activity: the speech ended, the supplier answers up to the session's limit.
      const updates = session.received.filter((e) => typeof e.session?.max_response_output_tokens === 'number')
      const limit = updates.length ? updates[updates.length - 1].session.max_response_output_tokens : 4096
      session.send({ type: 'input_audio_buffer.committed', item_id: 'item_vad' })
      session.send({ type: 'response.created', response: { id: 'resp_vad', status: 'in_progress' } })
      session.send({
        type: 'response.done',
        response: {
          id: 'resp_vad',
          status: 'incomplete',
          usage: { input_tokens: 300, output_tokens: limit, input_token_details: { text_tokens: 280, audio_tokens: 20 }, output_token_details: { text_tokens: limit } },
        },
      })
    }
    const user = await createUser({ quota: 20_000 })
    const token = await createToken(user.id)
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: SECOND_OF_AUDIO }))
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: SECOND_OF_AUDIO }))
    await s.next('response.done')
    // The balance could not pay for 4,096 output tokens: the supplier was told the limit the hold covers.
    const [update] = sent('session.update')
    expect(update.session.max_response_output_tokens).toBeGreaterThan(0)
    expect(update.session.max_response_output_tokens).toBeLessThan(2000)
    expect(
      sent('session.update')
        .map((e) => JSON.stringify(e))
        .join()
    ).not.toContain('"create_response"')
    // What is left does not cover the next answer's input: the audio is refused, never forwarded.
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: SECOND_OF_AUDIO.repeat(8), event_id: 'evt_audio' }))
    expect((await s.next('error')).error).toMatchObject({ code: 'insufficient_quota', event_id: 'evt_audio' })
    expect(sent('input_audio_buffer.append')).toHaveLength(2)
    await s.close()
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(l.quota).toBeGreaterThanOrEqual(0)
    expect(20_000 - l.quota).toBe(l.loggedQuota)
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
  })
})

describe('realtime transcription', () => {
  it('charges a committed buffer at the transcription price with its own row, and audio the server commits by itself', async () => {
    await setPrice('whisper-1', 3, 0, 'times')
    await setPrice('gpt-4o-transcribe', 1.25, 5)
    script = (event, session) => {
      if (event.type === 'input_audio_buffer.commit') {
        session.send({ type: 'input_audio_buffer.committed', item_id: 'item_1' })
        session.send({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'item_1', transcript: 'hello there', usage: { type: 'duration', seconds: 3 } })
      }
      if (event.type === 'input_audio_buffer.append' && session.received.filter((e) => e.type === 'session.update').length === 2) {
        // Server voice activity: the supplier commits the speech itself, and reports token usage.
        session.send({ type: 'input_audio_buffer.committed', item_id: 'item_2' })
        session.send({
          type: 'conversation.item.input_audio_transcription.completed',
          item_id: 'item_2',
          transcript: 'hi',
          usage: { type: 'tokens', total_tokens: 14, input_tokens: 10, input_token_details: { audio_tokens: 10, text_tokens: 0 }, output_tokens: 4 },
        })
      }
    }
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'session.update', session: { turn_detection: null, input_audio_transcription: { model: 'whisper-1' } } }))
    for (let i = 0; i < 3; i++) s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: SECOND_OF_AUDIO }))
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.commit' }))
    await s.next('conversation.item.input_audio_transcription.completed')
    s.ws!.send(JSON.stringify({ type: 'session.update', session: { turn_detection: { type: 'server_vad' }, input_audio_transcription: { model: 'gpt-4o-transcribe' } } }))
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: SECOND_OF_AUDIO }))
    await s.next('conversation.item.input_audio_transcription.completed')
    await s.close()
    const l = await ledger(user.id)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
    const rows = (await consumeRows(user.id)).results
    // whisper-1: $0.006 a started minute = 3,000 units; gpt-4o-transcribe: 10 × 1.25 + 4 × 5 = 33 units.
    expect(rows.map((r) => [r.model_name, r.quota])).toEqual([
      ['whisper-1', 3000],
      ['gpt-4o-transcribe', 33],
    ])
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
  })

  it('refuses to enable transcription with a model that has no price', async () => {
    const token = await createToken((await createUser({ quota: 10_000_000 })).id)
    const s = await open(token.key)
    s.ws!.send(JSON.stringify({ type: 'session.update', event_id: 'evt_t', session: { input_audio_transcription: { model: 'unpriced-transcriber' } } }))
    expect((await s.next('error')).error).toMatchObject({ code: 'model_not_priced', event_id: 'evt_t' })
    expect(sent('session.update')).toEqual([])
    await s.close()
  })
})

describe('realtime session slots', () => {
  it('holds RealtimeMaxSessionsPerKey and the key concurrency_limit until the socket closes', async () => {
    await setOptions({ RealtimeMaxSessionsPerKey: '2' })
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const a = await open(token.key)
    const b = await open(token.key)
    expect([a.res.status, b.res.status]).toEqual([101, 101])
    const c = await open(token.key)
    expect(c.res.status).toBe(429)
    expect(await c.res.json()).toMatchObject({ error: { code: 'concurrency_limit_exceeded' } })
    // Another key of the same user has its own sessions.
    const other = await open((await createToken(user.id)).key)
    expect(other.res.status).toBe(101)
    await other.close()
    await a.close()
    const again = await open(token.key)
    expect(again.res.status).toBe(101)

    const limited = await createToken(user.id)
    await env.DB.prepare('UPDATE tokens SET concurrency_limit = 1 WHERE id = ?').bind(limited.id).run()
    const first = await open(limited.key)
    expect(first.res.status).toBe(101)
    const second = await open(limited.key)
    expect(second.res.status).toBe(429)
    expect(await second.res.json()).toMatchObject({ error: { code: 'concurrency_limit_exceeded' } })
    for (const s of [b, again, first]) await s.close()
  })
})
