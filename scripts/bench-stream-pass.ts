/**
 * `npm run bench:stream-pass`: the JavaScript cost per event of the Anthropic → Anthropic
 * and Gemini → Gemini stream paths in Node (V8, as in workerd), before and after the byte
 * pass-through (worker/relay/inbound/<format>/stream-pass.ts). N events (default 2,048), one per
 * upstream read, as paced tokens arrive. Two measures per path:
 *  - work: the per-read functions alone — before, the relay's decode → native transformer (chat
 *    converter, JSON.parse, `{native}` wrap) → encode, then relay-hook's decode → JSON.parse →
 *    encoder → encode; after, the pass-through's `push`; each followed by reading the usage;
 *  - pipeline: primeStream (plus relay-hook's adaptStream before) read to the end, so the
 *    ReadableStream plumbing both pay is in it.
 * µs per event, the median of BENCH_ROUNDS rounds (default 7) after one warm-up round.
 * Options (env): BENCH_EVENTS, BENCH_ROUNDS.
 */
import { encodeDataList, SseDecoder } from '../shared/contract/sse'
import { anthropicCodec } from '../worker/relay/inbound/anthropic/codec'
import { AnthropicPassThrough } from '../worker/relay/inbound/anthropic/stream-pass'
import { geminiGenerateCodec } from '../worker/relay/inbound/gemini/codec'
import { GeminiPassThrough } from '../worker/relay/inbound/gemini/stream-pass'
import { adaptStream } from '../worker/relay/inbound/relay-hook'
import type { InboundCodec } from '../worker/relay/inbound/types'
import type { RelayCall, StreamTransformer } from '../worker/providers/types'
import type { StreamSource } from '../worker/relay/stream-bytes'
import { primeStream } from '../worker/relay/stream-relay'

const N = Number(process.env.BENCH_EVENTS ?? 2048)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const enc = new TextEncoder()
const WORDS = 'The quick brown fox jumps over the lazy dog while the river runs on — 世界 '.split(/(?<= )/)
const word = (i: number) => WORDS[i % WORDS.length]!

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
function anthropicEvents(n: number): Uint8Array[] {
  const usage = { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 2048, output_tokens: 1 }
  const out = [
    frame('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage } }),
    frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    frame('ping', { type: 'ping' }),
  ]
  for (let i = 0; i < n; i++) out.push(frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word(i) } }))
  out.push(frame('content_block_stop', { type: 'content_block_stop', index: 0 }))
  out.push(frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: n } }))
  out.push(frame('message_stop', { type: 'message_stop' }))
  return out.map((e) => enc.encode(e))
}

/** Gemini repeats the running usage in every frame, CRLF-separated. */
function geminiEvents(n: number): Uint8Array[] {
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const last = i === n - 1
    const chunk = {
      candidates: [{ content: { parts: [{ text: word(i) }], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: { promptTokenCount: 14, candidatesTokenCount: i + 1, totalTokenCount: 15 + i },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mK2TaOqJD4-QmNAPz6WxuAk',
    }
    out.push(`data: ${JSON.stringify(chunk)}\r\n\r\n`)
  }
  return out.map((e) => enc.encode(e))
}

interface Pair {
  name: string
  events: Uint8Array[]
  call: RelayCall
  codec: () => InboundCodec
  channelType: number
  body: unknown
  source: (call: RelayCall) => StreamSource
}

const call = (model: string): RelayCall => ({ op: 'chat', model, stream: true, includeUsage: false, maxOutputTokens: 4096 })
const PAIRS: Pair[] = [
  {
    name: 'anthropic→anthropic',
    events: anthropicEvents(N),
    call: call('claude-sonnet-4-5'),
    codec: () => anthropicCodec(),
    channelType: 14,
    body: { model: 'claude-sonnet-4-5', max_tokens: 4096, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    source: (c) => new AnthropicPassThrough(c),
  },
  {
    name: 'gemini→gemini',
    events: geminiEvents(N),
    call: call('gemini-2.5-flash'),
    codec: () => geminiGenerateCodec('gemini-2.5-flash', true),
    channelType: 25,
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    source: (c) => new GeminiPassThrough(c),
  },
]

/** The native transformer the relay used before (native.ts's `{native}` wrapper around the chat converter). */
function oldTransformer(pair: Pair): { transformer: StreamTransformer; codec: InboundCodec } {
  const codec = pair.codec()
  codec.toOpenAI(pair.body)
  return { transformer: codec.nativeAdapter!(pair.channelType)!.createStream(pair.call), codec }
}

function workBefore(pair: Pair) {
  const { transformer, codec } = oldTransformer(pair)
  const relayDecoder = new SseDecoder()
  const hookDecoder = new SseDecoder()
  const encoder = codec.createStreamEncoder()
  let bytes = 0
  for (const read of pair.events) {
    const produced: string[] = []
    for (const ev of relayDecoder.push(read)) produced.push(...transformer.onEvent(ev))
    if (!produced.length) continue
    for (const ev of hookDecoder.push(encodeDataList(produced))) {
      for (const f of encoder.onChunk(JSON.parse(ev.data))) bytes += enc.encode(f).length
    }
  }
  return [bytes, transformer.usage()] as const
}

function workAfter(pair: Pair) {
  const source = pair.source(pair.call)
  let bytes = 0
  for (const read of pair.events) bytes += source.push(read).bytes?.length ?? 0
  bytes += source.end().bytes?.length ?? 0
  return [bytes, source.usage()] as const
}

function upstream(events: Uint8Array[]): Response {
  let i = 0
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < events.length) controller.enqueue(events[i++]!)
        else controller.close()
      },
    })
  )
}

async function drain(res: Response) {
  const reader = res.body!.getReader()
  let bytes = 0
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length
  return bytes
}

async function pipeline(pair: Pair, before: boolean) {
  const { transformer, codec } = before ? oldTransformer(pair) : { transformer: pair.source(pair.call), codec: undefined }
  const primed = await primeStream({
    upstream: upstream(pair.events),
    transformer,
    includeUsage: false,
    startedAt: Date.now(),
    resolveUsage: async () => ({ promptTokens: 0, completionTokens: 0 }),
  })
  if (!primed.ok) throw new Error(primed.error.message)
  const res = codec ? adaptStream(primed.stream.response, codec.createStreamEncoder()) : primed.stream.response
  const bytes = await drain(res)
  await primed.stream.done
  return bytes
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function time(run: () => unknown | Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await run()
  return Number(process.hrtime.bigint() - start) / 1000 / N
}

const rows: string[] = ['| pair | measure | before (µs/event) | after (µs/event) | before ÷ after |', '|---|---|---|---|---|']
for (const pair of PAIRS) {
  const cells = {
    work: [() => workBefore(pair), () => workAfter(pair)],
    pipeline: [() => pipeline(pair, true), () => pipeline(pair, false)],
  } as const
  for (const [measure, [before, after]] of Object.entries(cells)) {
    const samples: [number[], number[]] = [[], []]
    for (let round = 0; round <= ROUNDS; round++) {
      // Alternate which goes first; round 0 warms both up and is dropped.
      const order = round % 2 ? [1, 0] : [0, 1]
      for (const k of order) {
        const us = await time(k === 0 ? before : after)
        if (round > 0) samples[k]!.push(us)
      }
    }
    const [b, a] = [median(samples[0]), median(samples[1])]
    rows.push(`| ${pair.name} | ${measure} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(b / a).toFixed(1)}× |`)
  }
}
console.log(`N = ${N} events, one per read; median of ${ROUNDS} rounds (Node ${process.version})\n`)
console.log(rows.join('\n'))
