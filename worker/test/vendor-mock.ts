/**
 * A fetch-level supplier mock that obeys each vendor's OWN output-limit field, and only that one:
 * OpenAI and Azure read `max_completion_tokens`, else `max_tokens`; a legacy OpenAI-compatible server
 * (channel key `legacy`) reads only `max_tokens`; Anthropic (and Claude on Vertex) `max_tokens`; the
 * Responses API `max_output_tokens`; Gemini (and Vertex Gemini) `generationConfig.maxOutputTokens`,
 * with an explicit `thinkingConfig.thinkingBudget` spent on top of it (as Google documents them);
 * Bedrock Converse `inferenceConfig.maxTokens`. It always writes the whole limit it read — and
 * UNBOUNDED tokens when it read none — in the vendor's own answer and stream formats (Bedrock streams
 * as AWS event-stream frames). `/token` plays Vertex's OAuth token endpoint and answers any assertion.
 */
import { vi } from 'vitest'
import { crc32 } from '../providers/bedrock/event-stream'
import { concat } from './audio-fixtures'

/** Output tokens a supplier writes when it was sent no limit. */
export const UNBOUNDED = 50_000
/** Prompt tokens every answer reports (below any estimate of the prompts the tests send). */
export const PROMPT_TOKENS = 20

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
const sse = (frames: string[]) => new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } })
const named = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
const data = (d: unknown) => `data: ${JSON.stringify(d)}\n\n`
const num = (v: unknown) => (typeof v === 'number' ? v : undefined)

function openaiChat(body: any, out: number): Response {
  const usage = { prompt_tokens: PROMPT_TOKENS, completion_tokens: out, total_tokens: PROMPT_TOKENS + out }
  const base = { id: 'chatcmpl-v', created: 1, model: body.model }
  if (!body.stream) {
    return json({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }], usage })
  }
  const chunk = (choices: unknown[], extra = {}) => data({ ...base, object: 'chat.completion.chunk', choices, ...extra })
  return sse([
    chunk([{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'length' }]),
    chunk([], { usage }),
    'data: [DONE]\n\n',
  ])
}

function responses(body: any, out: number): Response {
  const usage = { input_tokens: PROMPT_TOKENS, output_tokens: out, total_tokens: PROMPT_TOKENS + out }
  const message = { type: 'message', id: 'msg_v', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }
  const response = { id: 'resp_v', object: 'response', created_at: 1, status: 'incomplete', model: body.model, output: [message], usage }
  if (!body.stream) return json(response)
  return sse([
    named('response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } }),
    named('response.output_text.delta', { type: 'response.output_text.delta', item_id: 'msg_v', output_index: 0, content_index: 0, delta: 'ok' }),
    named('response.incomplete', { type: 'response.incomplete', response }),
  ])
}

function anthropic(body: any, out: number): Response {
  const message = { id: 'msg_v', type: 'message', role: 'assistant', model: body.model ?? 'claude', content: [{ type: 'text', text: 'ok' }], stop_reason: 'max_tokens' }
  if (!body.stream) return json({ ...message, usage: { input_tokens: PROMPT_TOKENS, output_tokens: out } })
  return sse([
    named('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: PROMPT_TOKENS, output_tokens: 1 } } }),
    named('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    named('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }),
    named('content_block_stop', { type: 'content_block_stop', index: 0 }),
    named('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: out } }),
    named('message_stop', { type: 'message_stop' }),
  ])
}

function gemini(body: any, stream: boolean): Response {
  const g = body.generationConfig ?? {}
  const out = num(g.maxOutputTokens) ?? UNBOUNDED
  const thoughts = Math.max(0, num(g.thinkingConfig?.thinkingBudget) ?? 0)
  const usageMetadata = { promptTokenCount: PROMPT_TOKENS, candidatesTokenCount: out, thoughtsTokenCount: thoughts, totalTokenCount: PROMPT_TOKENS + out + thoughts }
  const answer = { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'MAX_TOKENS' }], usageMetadata, modelVersion: 'gemini' }
  return stream ? sse([data(answer)]) : json(answer)
}

/** One AWS event-stream message with its event type and JSON payload. */
function eventFrame(type: string, payload: unknown): Uint8Array {
  const enc = new TextEncoder()
  const headers = [
    [':event-type', type],
    [':content-type', 'application/json'],
    [':message-type', 'event'],
  ].flatMap(([k, v]) => {
    const name = enc.encode(k)
    const value = enc.encode(v)
    return [Uint8Array.of(name.length), name, Uint8Array.of(7, value.length >> 8, value.length & 0xff), value]
  })
  const headerBytes = concat(...headers)
  const body = enc.encode(JSON.stringify(payload))
  const total = 12 + headerBytes.length + body.length + 4
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  view.setUint32(0, total)
  view.setUint32(4, headerBytes.length)
  view.setUint32(8, crc32(out, 0, 8))
  out.set(headerBytes, 12)
  out.set(body, 12 + headerBytes.length)
  view.setUint32(total - 4, crc32(out, 0, total - 4))
  return out
}

function bedrock(body: any, stream: boolean): Response {
  const out = num(body.inferenceConfig?.maxTokens) ?? UNBOUNDED
  const usage = { inputTokens: PROMPT_TOKENS, outputTokens: out, totalTokens: PROMPT_TOKENS + out }
  if (!stream) return json({ output: { message: { role: 'assistant', content: [{ text: 'ok' }] } }, stopReason: 'max_tokens', usage })
  const frames = [
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }),
    eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
    eventFrame('messageStop', { stopReason: 'max_tokens' }),
    eventFrame('metadata', { usage, metrics: { latencyMs: 1 } }),
  ]
  return new Response(concat(...frames), { headers: { 'content-type': 'application/vnd.amazon.eventstream' } })
}

function answer(req: Request, body: any, key: string): Response {
  const path = new URL(req.url).pathname
  if (path.endsWith('/token')) return json({ access_token: 'ya29.vendor-mock', expires_in: 3599, token_type: 'Bearer' })
  if (path.endsWith('/chat/completions')) {
    const limit = key === 'legacy' ? num(body.max_tokens) : (num(body.max_completion_tokens) ?? num(body.max_tokens))
    return openaiChat(body, limit ?? UNBOUNDED)
  }
  if (path.endsWith('/responses')) return responses(body, num(body.max_output_tokens) ?? UNBOUNDED)
  if (path.endsWith('/messages') || path.includes(':rawPredict') || path.includes(':streamRawPredict')) {
    return anthropic({ ...body, stream: body.stream === true || path.includes(':stream') }, num(body.max_tokens) ?? UNBOUNDED)
  }
  if (path.includes(':generateContent') || path.includes(':streamGenerateContent')) return gemini(body, path.includes(':stream'))
  if (path.endsWith('/converse') || path.endsWith('/converse-stream')) return bedrock(body, path.endsWith('-stream'))
  return new Response(JSON.stringify({ error: { message: `no vendor mock for ${path}` } }), { status: 404 })
}

function keyOf(req: Request): string {
  const bearer = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '')
  return req.headers.get('x-api-key') || req.headers.get('api-key') || req.headers.get('x-goog-api-key') || bearer
}

/** Answers every fetch to https://upstream.test as the vendor its path names; records the bodies it was sent. */
export function mockVendors() {
  const calls: { url: string; key: string; body: any; headers: Headers }[] = []
  const real = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (!req.url.startsWith('https://upstream.test')) return real(input, init)
    const text = req.method === 'POST' ? await req.clone().text() : ''
    let body: any = {}
    try {
      body = text && (req.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : {}
    } catch {
      body = {}
    }
    const key = keyOf(req)
    calls.push({ url: req.url, key, body, headers: req.headers })
    return answer(req, body, key)
  })
  return { calls, restore: () => spy.mockRestore() }
}
