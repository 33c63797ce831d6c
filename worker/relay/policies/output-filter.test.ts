/**
 * Answer-side content safety: the stream filter against the whole-text mask on random texts cut
 * into random chunks (a word split across chunks is still caught, nothing else changes), the hold
 * back bound, and the real relay masking a JSON answer, an OpenAI stream and an Anthropic stream
 * while billing the supplier's usage exactly as before.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../../test/factories'
import { mockUpstream, USAGE } from '../../test/upstream-mock'
import { maskAnswer, StreamOutputFilter } from './output-filter'
import { WordAutomaton } from './word-automaton'

/** Runs of `*` collapse: a stream may mask two touching words as two spans where the whole text has one. */
const norm = (s: string) => s.replace(/\*+/g, '*')

function chunkPayload(index: number, content: string | undefined, finish: string | null = null) {
  return JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  })
}

function contentOf(payloads: string[]): string {
  let out = ''
  for (const p of payloads) for (const c of JSON.parse(p).choices) out += c.delta?.content ?? ''
  return out
}

/** A deterministic generator, so a failure reproduces. */
function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

describe('StreamOutputFilter', () => {
  it('matches the whole-text mask on 500 random texts cut into random chunks, with or without a finish chunk', () => {
    const rand = rng(7)
    const alphabet = 'abcAB xy违禁'
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')
    for (let round = 0; round < 500; round++) {
      const words = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(1 + Math.floor(rand() * 5)).trim()).filter(Boolean)
      if (words.length === 0) continue
      const automaton = new WordAutomaton(words)
      const text = pick(Math.floor(rand() * 60))
      const filter = new StreamOutputFilter(automaton)
      const out: string[] = []
      let at = 0
      while (at < text.length) {
        const n = 1 + Math.floor(rand() * 6)
        out.push(filter.chunk(chunkPayload(0, text.slice(at, at + n))))
        at += n
      }
      if (rand() < 0.5) out.push(filter.chunk(chunkPayload(0, undefined, 'stop')))
      out.push(...filter.end())
      const got = contentOf(out)
      expect(norm(got), JSON.stringify({ words, text })).toBe(norm(automaton.mask(text).text))
      for (const w of words) expect(got.toLowerCase()).not.toContain(w.toLowerCase())
    }
  })

  it('holds back at most the longest word less one character, and releases it with the finish chunk', () => {
    const filter = new StreamOutputFilter(new WordAutomaton(['secret']))
    // 19 characters in, 5 (= 'secret'.length − 1) held.
    expect(contentOf([filter.chunk(chunkPayload(0, 'the password is sec'))])).toBe('the password i')
    // The tail 's secret, ok' holds a whole word reaching into the last 5: it stays back whole.
    expect(contentOf([filter.chunk(chunkPayload(0, 'ret, ok'))])).toBe('s ')
    expect(contentOf([filter.chunk(chunkPayload(0, '', 'stop'))])).toBe('***, ok')
    expect(filter.end()).toEqual([])
    expect(filter.masked).toBe(1)
  })

  it('keeps choices apart, passes non-chunk payloads through and closes held text with a last chunk', () => {
    const filter = new StreamOutputFilter(new WordAutomaton(['bad']))
    expect(filter.chunk('not json')).toBe('not json')
    const a = filter.chunk(chunkPayload(0, 'ba'))
    const b = filter.chunk(chunkPayload(1, 'okay'))
    const c = filter.chunk(chunkPayload(0, 'd'))
    const end = filter.end()
    expect(end).toHaveLength(1)
    const last = JSON.parse(end[0]!)
    expect(last).toMatchObject({ id: 'c1', object: 'chat.completion.chunk', model: 'm' })
    const byChoice = (i: number) =>
      [a, b, c, ...end]
        .flatMap((p) => JSON.parse(p).choices)
        .filter((ch: { index: number }) => ch.index === i)
        .map((ch: { delta: { content?: string } }) => ch.delta.content ?? '')
        .join('')
    expect(byChoice(0)).toBe('***')
    expect(byChoice(1)).toBe('okay')
  })

  it('never splits a surrogate pair between two chunks', () => {
    const filter = new StreamOutputFilter(new WordAutomaton(['abc']))
    const first = contentOf([filter.chunk(chunkPayload(0, 'x😀y'))])
    expect(first).toBe('x')
    expect(contentOf([filter.chunk(chunkPayload(0, 'z', 'stop'))])).toBe('😀yz')
  })
})

describe('maskAnswer', () => {
  it('masks message content strings and text parts, and completion text', () => {
    const words = new WordAutomaton(['bad'])
    const body = {
      choices: [
        { index: 0, message: { role: 'assistant', content: 'a BAD day' } },
        { index: 1, message: { role: 'assistant', content: [{ type: 'text', text: 'bad' }] } },
        { index: 2, text: 'so bad' },
      ],
    }
    expect(maskAnswer(body, words)).toBe(3)
    expect(body.choices.map((c) => JSON.stringify(c))).toEqual([
      JSON.stringify({ index: 0, message: { role: 'assistant', content: 'a *** day' } }),
      JSON.stringify({ index: 1, message: { role: 'assistant', content: [{ type: 'text', text: '***' }] } }),
      JSON.stringify({ index: 2, text: 'so ***' }),
    ])
  })
})

describe('the relay masks answers with CheckSensitiveOnCompletionEnabled', () => {
  let upstream: ReturnType<typeof mockUpstream>
  afterEach(() => upstream.restore())
  const MODEL = 'output-filter-model'
  // The mock answers "Hello from the mock upstream." — streamed as "Hello ", "from ", "the ", "mock ", "upstream.".
  const on = { CheckSensitiveEnabled: 'true', CheckSensitiveOnPromptEnabled: 'true', CheckSensitiveOnCompletionEnabled: 'true', SensitiveWords: 'MOCK UP\nom th' }

  async function setup(options: Record<string, string>) {
    upstream = mockUpstream()
    await setPrice(MODEL, 2, 4)
    await createChannel({ key: 'good', models: MODEL })
    await setOptions(options)
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id)
    return { user, token }
  }

  it('masks a JSON answer and a stream whose word is split across chunks; the bill is the supplier usage as before', async () => {
    const { user, token } = await setup(on)
    const res = await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, messages: [{ role: 'user', content: 'hi' }] } })
    expect(res.status).toBe(200)
    expect(res.json.choices[0].message.content).toBe('Hello fr***e ***stream.')

    const streamed = await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] } })
    expect(streamed.status).toBe(200)
    const payloads = streamed.text
      .split('\n\n')
      .map((e) => e.replace(/^data: /, ''))
      .filter((d) => d && d !== '[DONE]')
    expect(contentOf(payloads)).toBe('Hello fr***e ***stream.')
    expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true)

    // Both answers billed the supplier's reported usage: the same amount each, Σ rows = balance change.
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
    const { results } = await env.DB.prepare('SELECT quota, prompt_tokens, completion_tokens FROM logs WHERE user_id = ? AND type = 2')
      .bind(user.id)
      .all<{ quota: number; prompt_tokens: number; completion_tokens: number }>()
    expect(results.map((r) => [r.prompt_tokens, r.completion_tokens])).toEqual([
      [USAGE.prompt_tokens, USAGE.completion_tokens],
      [USAGE.prompt_tokens, USAGE.completion_tokens],
    ])
    expect(results[0]!.quota).toBeGreaterThan(0)
    expect(results[1]!.quota).toBe(results[0]!.quota)
  })

  it('masks an Anthropic Messages stream too, and leaves answers alone when the switch is off', async () => {
    const { token } = await setup(on)
    const res = await send('/v1/messages', {
      key: token.key,
      json: { model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    })
    expect(res.status).toBe(200)
    const text = res.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.text)
      .join('')
    expect(text).toBe('Hello fr***e ***stream.')

    await setOptions({ CheckSensitiveOnCompletionEnabled: 'false' })
    const plain = await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, messages: [{ role: 'user', content: 'hi' }] } })
    expect(plain.json.choices[0].message.content).toBe('Hello from the mock upstream.')
  })
})
