/**
 * The response cache: on when both the ChatCacheEnabled setting and the token's cache flag are on,
 * for chat (stream or not, and so every inbound format, whose codec turns its body into a chat body
 * first) and embeddings. Keyed by the owner and a hash of the normalised body — the body without
 * what does not change the answer (`stream`, `stream_options`) — so a streamed and a plain request
 * share an entry. Kept in KV for ChatCacheExpireMinute minutes; a hit calls no supplier and is
 * billed at ChatCacheHitRatio of its cost (0, the default: free, and then no wallet call either),
 * held and settled like any request (relay-money.ts `answerFromCache`).
 *
 * - A streamed request is answered from a cached answer as an OpenAI chunk stream (with the usage
 *   chunk when asked), which inbound codecs convert like any relay stream.
 * - A streamed answer is stored when it completed and the request offered no tools (its text is all
 *   the answer then).
 * - `x-gateway-cache: off` neither reads nor stores; `refresh` skips the read and stores the new answer.
 */
import type { Usage } from '../billing/formula'
import { cacheKeys } from '../cache/keys'
import { sha256Hex } from '../lib/crypto'
import type { Settings } from '../settings/store'
import { encodeDataList } from '../../shared/contract/sse'
import type { RelayInput } from './relay-input'
import type { RelayAuth } from '../access/token-auth'

export interface CachedAnswer {
  body: unknown
  usage: Usage
}

export type CacheMode = 'on' | 'off' | 'refresh'

/** The request's `x-gateway-cache` header: off, refresh, or (absent or anything else) on. */
export function cacheModeOf(header: string | undefined): CacheMode {
  const v = header?.trim().toLowerCase()
  return v === 'off' || v === 'refresh' ? v : 'on'
}

const CACHED_OPS = new Set(['chat', 'embeddings'])

function enabled(settings: Settings, auth: RelayAuth, input: RelayInput) {
  return settings.bool('ChatCacheEnabled') && auth.chatCache && CACHED_OPS.has(input.op) && input.json !== undefined
}

/** Body fields that change how an answer is delivered, not what it says. */
const DELIVERY_FIELDS = new Set(['stream', 'stream_options'])

const keyOf = async (auth: RelayAuth, input: RelayInput) => {
  const normalised = Object.fromEntries(Object.entries(input.json ?? {}).filter(([k]) => !DELIVERY_FIELDS.has(k)))
  return cacheKeys.chatCache(await sha256Hex(`${auth.userId}\n${input.op}\n${JSON.stringify(normalised)}`))
}

export async function readCachedAnswer(env: Env, settings: Settings, auth: RelayAuth, input: RelayInput, mode: CacheMode): Promise<CachedAnswer | null> {
  if (mode !== 'on' || !enabled(settings, auth, input)) return null
  return env.CACHE.get<CachedAnswer>(await keyOf(auth, input), 'json')
}

export async function storeCachedAnswer(env: Env, settings: Settings, auth: RelayAuth, input: RelayInput, answer: CachedAnswer, mode: CacheMode) {
  if (mode === 'off' || !enabled(settings, auth, input)) return
  const ttl = Math.max(60, settings.int('ChatCacheExpireMinute') * 60)
  await env.CACHE.put(await keyOf(auth, input), JSON.stringify(answer), { expirationTtl: ttl })
}

/** Whether a completed stream's answer may be stored: its text is the whole answer only without tools. */
export const streamCacheable = (input: RelayInput) => input.op === 'chat' && !input.hasTools

/** The chat answer a completed stream amounts to (its text, finished), for the cache. */
export function answerOfStream(text: string, model: string, usage: Usage): CachedAnswer {
  return {
    body: {
      id: `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
    },
    usage,
  }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A cached chat answer as the OpenAI chunk stream a streamed request expects: per choice its role
 * and content (and tool calls), then its finish reason; the usage chunk when `includeUsage`; [DONE].
 */
export function replayAsStream(cached: CachedAnswer, includeUsage: boolean): ReadableStream<Uint8Array> {
  const body = isObject(cached.body) ? cached.body : {}
  const base = { id: body.id ?? `chatcmpl-${crypto.randomUUID()}`, object: 'chat.completion.chunk', created: body.created ?? Math.floor(Date.now() / 1000), model: body.model }
  const events: string[] = []
  const choices = Array.isArray(body.choices) ? body.choices.filter(isObject) : []
  for (const [i, choice] of choices.entries()) {
    const index = typeof choice.index === 'number' ? choice.index : i
    const message = isObject(choice.message) ? choice.message : {}
    const delta: Json = { role: 'assistant', content: typeof message.content === 'string' ? message.content : '' }
    if (Array.isArray(message.tool_calls)) delta.tool_calls = message.tool_calls.map((call, n) => (isObject(call) ? { index: n, ...call } : call))
    events.push(JSON.stringify({ ...base, choices: [{ index, delta, finish_reason: null }] }))
    events.push(JSON.stringify({ ...base, choices: [{ index, delta: {}, finish_reason: choice.finish_reason ?? 'stop' }] }))
  }
  if (includeUsage) {
    const { promptTokens, completionTokens } = cached.usage
    events.push(
      JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } })
    )
  }
  events.push('[DONE]')
  const bytes = encodeDataList(events)
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}
