/**
 * Fetch-level mock of upstream suppliers for worker tests: every outbound fetch to
 * https://upstream.test is answered here; behaviour is chosen by the channel key like the
 * scripts/mock-upstream.mjs server (mock-500, mock-429, mock-401, mock-nousage, mock-badjson,
 * mock-hang, mock-cut, and mock-tpm-<N>: the suppliers' real "request too large" 429 for a prompt
 * over N tokens, scripts/mock-rate-limits.mjs). Records every call so tests can count traffic per key.
 */
import { vi } from 'vitest'
import { requestTooLarge, tpmLimit } from '../../scripts/mock-rate-limits.mjs'

export const REPLY = 'Hello from the mock upstream.'
export const USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 }

export interface MockCall {
  key: string
  url: string
  body: any
}

function keyOf(req: Request) {
  return (
    (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '') || req.headers.get('x-api-key') || req.headers.get('api-key') || req.headers.get('x-goog-api-key') || ''
  )
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const error = (status: number, message: string, type: string, code: string | null = null) => json(status, { error: { message, type, code } })

function sse(chunks: string[], cut = false): Response {
  const enc = new TextEncoder()
  let i = 0
  return new Response(
    new ReadableStream({
      pull(controller) {
        if (cut && i === 2) return controller.error(new Error('connection reset by peer'))
        if (i >= chunks.length) return controller.close()
        controller.enqueue(enc.encode(chunks[i++]))
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } }
  )
}

function chatAnswer(body: any, mode: string): Response {
  const model = body.model
  if (!body.stream) {
    const answer: any = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' }],
    }
    if (mode !== 'nousage') answer.usage = USAGE
    if (mode === 'badjson') return new Response('{"id": "broken", "choices": [', { headers: { 'content-type': 'application/json' } })
    return json(200, answer)
  }
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model }
  const frames = ['Hello ', 'from ', 'the ', 'mock ', 'upstream.'].map(
    (t) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: t }, finish_reason: null }] })}\n\n`
  )
  frames.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`)
  if (body.stream_options?.include_usage && mode !== 'nousage') frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage: USAGE })}\n\n`)
  frames.push('data: [DONE]\n\n')
  return sse(frames, mode === 'cut')
}

export function mockUpstream(handler?: (req: Request, body: any, key: string) => Response | Promise<Response> | undefined) {
  const calls: MockCall[] = []
  const real = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (!req.url.startsWith('https://upstream.test')) return real(input, init)
    const key = keyOf(req)
    const text = req.method === 'POST' && (req.headers.get('content-type') ?? '').includes('json') ? await req.clone().text() : ''
    const body = text ? JSON.parse(text) : {}
    calls.push({ key, url: req.url, body })
    const custom = await handler?.(req, body, key)
    if (custom) return custom
    const url = new URL(req.url)
    const tooLarge = requestTooLarge(url.pathname, body, tpmLimit(key))
    if (tooLarge) return new Response(JSON.stringify(tooLarge.body), { status: tooLarge.status, headers: { ...tooLarge.headers, 'content-type': 'application/json' } })
    const mode = key.startsWith('mock-') ? key.slice(5) : ''
    if (mode === '500') return error(500, 'The mock upstream failed', 'server_error')
    if (mode === '429') return error(429, 'Rate limit reached', 'rate_limit_error', 'rate_limit_exceeded')
    if (mode === '401') return error(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key')
    if (mode === '400') return error(400, 'Bad request from the mock', 'invalid_request_error')
    if (mode === 'hang') return new Promise<Response>((_, reject) => req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
    if (mode === 'reset') throw new TypeError('Network connection lost.')
    if (url.pathname.endsWith('/chat/completions')) return chatAnswer(body, mode)
    if (url.pathname.endsWith('/embeddings'))
      return json(200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], model: body.model, usage: { prompt_tokens: 5, total_tokens: 5 } })
    if (url.pathname.endsWith('/models')) return json(200, { object: 'list', data: [{ id: 'gpt-4o', object: 'model' }] })
    if (url.pathname.endsWith('/completions')) {
      return json(200, { id: 'cmpl-1', object: 'text_completion', model: body.model, choices: [{ index: 0, text: REPLY, finish_reason: 'stop' }], usage: USAGE })
    }
    if (url.pathname.endsWith('/moderations')) return json(200, { id: 'modr-1', model: body.model, results: [{ flagged: false }] })
    if (url.pathname.endsWith('/rerank')) return json(200, { results: [{ index: 0, relevance_score: 0.9 }], usage: { prompt_tokens: 8, total_tokens: 8 } })
    if (/\/images\/(generations|edits|variations)$/.test(url.pathname)) return json(200, { created: 1, data: [{ url: 'https://example.invalid/x.png' }] })
    if (url.pathname.endsWith('/audio/speech')) return new Response(new Uint8Array([1, 2, 3, 4]), { headers: { 'content-type': 'audio/mpeg' } })
    if (/\/audio\/(transcriptions|translations)$/.test(url.pathname)) {
      const form = await req
        .clone()
        .formData()
        .catch(() => undefined)
      calls[calls.length - 1]!.body = form ? Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${(v as File).name}`])) : {}
      return json(200, { text: 'transcribed words here' })
    }
    return error(404, `no mock for ${url.pathname}`, 'invalid_request_error')
  })
  return {
    calls,
    count: (key: string) => calls.filter((c) => c.key === key).length,
    restore: () => spy.mockRestore(),
  }
}
