#!/usr/bin/env node
/**
 * Mock AI supplier for local trials, e2e tests and the benchmark (`npm run mock-upstream`).
 * Speaks the OpenAI API (chat, completions, embeddings, moderations, images, audio, rerank,
 * models, billing), Anthropic Messages and Gemini generateContent — streaming and not — and, under
 * path prefixes, the signed suppliers of `mock-suppliers.mjs` (Bedrock, Hunyuan, Zhipu, Baidu,
 * Cohere, Vertex AI), which verify their auth scheme before answering natively.
 *
 * Behaviour is chosen by the API key the gateway sends (one per channel), so a test can point
 * channels with different keys at the same mock:
 *   mock-500 / mock-429 / mock-401 / mock-400  answer that status with an error body
 *   mock-quota        401 with `insufficient_quota`
 *   mock-hang         never answers
 *   mock-reset        destroys the connection
 *   mock-badjson      200 with a malformed JSON body
 *   mock-cut          streams two chunks then destroys the connection
 *   mock-nousage      omits usage (the gateway must count tokens itself)
 *   mock-delay-<ms>   waits before answering (e.g. mock-delay-60)
 *   mock-tpm-<N>      a key allowing N tokens per minute: a larger prompt gets the supplier's real
 *                     "request too large" 429 (OpenAI's or Anthropic's, mock-rate-limits.mjs)
 *   anything else     normal answers
 * An OpenAI chat request with tools gets a call of its first tool (numbers 2, 3, … for its number
 * parameters, else `{"city":"Paris"}`) unless its last message is a tool result: then it answers
 * in words, quoting the result when not streaming.
 * A chat or Anthropic stream whose prompt contains `bench-events-<N>` streams N content events (the
 * reply's words over and over), each written on its own turn of the event loop as a supplier's
 * paced tokens arrive (scripts/bench-stream-scale.mjs).
 * Under /mj (midjourney-proxy) and /suno (Suno-API) it runs asynchronous tasks that finish after
 * a few seconds (scripts/mock-tasks.mjs; TASK_STEP_MS sets the pace, default 1000) and call the
 * notifyHook a Midjourney submit gave them at each state change.
 * GET /v1/realtime upgrades to the Realtime WebSocket (scripts/mock-realtime.mjs).
 * GET /__stats returns request counts per key and path; POST /__reset clears them.
 * Options: PORT (default 3999), DELAY_MS (default delay for every request).
 */
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { supplierRoute } from './mock-suppliers.mjs'
import { createTaskMock } from './mock-tasks.mjs'
import { attachRealtime } from './mock-realtime.mjs'
import { requestTooLarge, tpmLimit } from './mock-rate-limits.mjs'
import { contentText, lastToolResult, toolArguments } from './mock-tool-calls.mjs'

const REPLY = 'Hello! This is the mock upstream answering your request.'
const words = (s) => (String(s).match(/\S+/g) ?? []).length

function promptText(body) {
  if (Array.isArray(body.messages)) {
    return body.messages.map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text ?? '').join(' ') : '')).join(' ')
  }
  if (Array.isArray(body.contents))
    return body.contents
      .flatMap((c) => c.parts ?? [])
      .map((p) => p.text ?? '')
      .join(' ')
  if (body.prompt !== undefined) return Array.isArray(body.prompt) ? body.prompt.join(' ') : String(body.prompt)
  if (body.input !== undefined) return Array.isArray(body.input) ? body.input.join(' ') : String(body.input)
  return ''
}

const usageOf = (body) => {
  const prompt = Math.max(1, words(promptText(body)) + (body.system ? words(typeof body.system === 'string' ? body.system : '') : 0))
  const completion = words(REPLY)
  return { prompt, completion }
}

function keyOf(req) {
  const auth = req.headers.authorization ?? ''
  return (
    auth.replace(/^Bearer\s+/i, '') ||
    req.headers['x-api-key'] ||
    req.headers['api-key'] ||
    req.headers['x-goog-api-key'] ||
    req.headers['mj-api-secret'] ||
    new URL(req.url, 'http://x').searchParams.get('key') ||
    ''
  )
}

const json = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const sse = (res) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function openAIError(res, status, message, type, code) {
  json(res, status, { error: { message, type, code: code ?? null, param: null } })
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const buf = Buffer.concat(chunks)
  // The signed-supplier personalities verify signatures over the exact bytes.
  req.rawBody = buf
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json')) {
    try {
      return JSON.parse(buf.toString('utf8') || '{}')
    } catch {
      return {}
    }
  }
  if (type.includes('multipart/form-data')) {
    const text = buf.toString('latin1')
    const model = text.match(/name="model"\r\n\r\n([^\r]*)/)?.[1]
    return { model, multipart: true, size: buf.length }
  }
  return { raw: buf.length }
}

/** The chunks of a streamed chat answer, split into words (`bench-events-<N>` in the prompt: N of them). */
const benchEvents = (body) => (body ? Number(promptText(body).match(/bench-events-(\d+)/)?.[1] ?? 0) : 0)
const replyPieces = (body) => {
  const words = REPLY.split(/(?<= )/)
  const n = benchEvents(body)
  return n > 0 ? Array.from({ length: n }, (_, i) => words[i % words.length]) : words
}
/** Between the events of a `bench-events-<N>` answer the mock yields, so they leave one by one. */
const paced = (body) => (benchEvents(body) > 0 ? () => new Promise((r) => setImmediate(r)) : () => undefined)

async function openAIChat(req, res, body, mode) {
  const model = body.model ?? 'gpt-mock'
  const { prompt, completion } = usageOf(body)
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
  const id = `chatcmpl-mock${Date.now()}`
  const created = Math.floor(Date.now() / 1000)
  const toolResult = lastToolResult(body)
  const wantsTool = Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none' && !toolResult
  if (!body.stream) {
    const message = wantsTool
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_mock1', type: 'function', function: { name: body.tools[0].function.name, arguments: toolArguments(body.tools[0]) } }],
        }
      : { role: 'assistant', content: toolResult ? `${REPLY} The tool answered: ${contentText(toolResult.content)}` : REPLY }
    const answer = {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, finish_reason: wantsTool ? 'tool_calls' : 'stop' }],
    }
    if (mode !== 'nousage') answer.usage = usage
    if (mode === 'badjson') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end('{"id": "broken", "choices": [')
    }
    return json(res, 200, answer)
  }
  sse(res)
  const write = (obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`)
  const base = { id, object: 'chat.completion.chunk', created, model }
  write({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })
  if (wantsTool) {
    write({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'call_mock1', type: 'function', function: { name: body.tools[0].function.name, arguments: '' } }] },
          finish_reason: null,
        },
      ],
    })
    write({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: toolArguments(body.tools[0]) } }] }, finish_reason: null }] })
    write({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })
  } else {
    // After a tool's result the streamed answer says it too, as the unstreamed one does.
    const pieces = toolResult ? [...replyPieces(body), ` The tool answered: ${contentText(toolResult.content)}`] : replyPieces(body)
    const pace = paced(body)
    for (let i = 0; i < pieces.length; i++) {
      if (mode === 'cut' && i === 2) return res.destroy()
      await pace()
      write({ ...base, choices: [{ index: 0, delta: { content: pieces[i] }, finish_reason: null }] })
      if (mode === 'slow') await sleep(40)
    }
    write({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
  }
  if (body.stream_options?.include_usage && mode !== 'nousage') write({ ...base, choices: [], usage })
  res.end('data: [DONE]\n\n')
}

function openAICompletion(res, body, mode) {
  const { prompt, completion } = usageOf(body)
  const answer = {
    id: 'cmpl-mock',
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, text: REPLY, finish_reason: 'stop', logprobs: null }],
  }
  if (mode !== 'nousage') answer.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
  if (!body.stream) return json(res, 200, answer)
  sse(res)
  for (const piece of replyPieces()) res.write(`data: ${JSON.stringify({ ...answer, usage: undefined, choices: [{ index: 0, text: piece, finish_reason: null }] })}\n\n`)
  if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ ...answer, choices: [], usage: answer.usage })}\n\n`)
  res.end('data: [DONE]\n\n')
}

async function anthropicMessages(res, body, mode) {
  const { prompt, completion } = usageOf(body)
  const wantsTool = Array.isArray(body.tools) && body.tools.length > 0
  const usage = { input_tokens: prompt, output_tokens: completion, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
  if (!body.stream) {
    return json(res, 200, {
      id: 'msg_mock',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: wantsTool ? [{ type: 'tool_use', id: 'toolu_mock', name: body.tools[0].name, input: { city: 'Paris' } }] : [{ type: 'text', text: REPLY }],
      stop_reason: wantsTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    })
  }
  sse(res)
  const ev = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`)
  ev('message_start', {
    message: { id: 'msg_mock', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, usage: { input_tokens: prompt, output_tokens: 1 } },
  })
  if (wantsTool) {
    ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_mock', name: body.tools[0].name, input: {} } })
    ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } })
    ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } })
  } else {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
    const pieces = replyPieces(body)
    const pace = paced(body)
    for (const [i, piece] of pieces.entries()) {
      if (mode === 'cut' && i === 2) return res.destroy()
      await pace()
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } })
    }
  }
  ev('content_block_stop', { index: 0 })
  ev('message_delta', { delta: { stop_reason: wantsTool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: completion } })
  ev('message_stop', {})
  res.end()
}

function geminiGenerate(res, body, model, stream, mode) {
  const { prompt, completion } = usageOf(body)
  const wantsTool = Array.isArray(body.tools) && body.tools.some((t) => t.functionDeclarations?.length)
  const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion }
  const part = wantsTool ? { functionCall: { name: body.tools.find((t) => t.functionDeclarations)?.functionDeclarations[0].name, args: { city: 'Paris' } } } : { text: REPLY }
  if (!stream) {
    return json(res, 200, { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model })
  }
  sse(res)
  if (wantsTool) {
    res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model })}\n\n`)
    return res.end()
  }
  const pieces = replyPieces()
  pieces.forEach((p, i) => {
    const last = i === pieces.length - 1
    const chunk = { candidates: [{ content: { role: 'model', parts: [{ text: p }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }], modelVersion: model }
    if (last) chunk.usageMetadata = usageMetadata
    res.write(`data: ${JSON.stringify(chunk)}\n\n`)
  })
  res.end()
}

export async function startMockUpstream({ port = Number(process.env.PORT ?? 3999), host = '127.0.0.1', delayMs = Number(process.env.DELAY_MS ?? 0) } = {}) {
  const stats = {}
  const taskMock = createTaskMock({
    stepMs: Number(process.env.TASK_STEP_MS ?? 1000),
    // midjourney-proxy's notifyHook: POST the task DTO to the hook after each state change.
    onTransition: (hook, delayMs, dto) => {
      setTimeout(() => {
        fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(dto()), signal: AbortSignal.timeout(5000) }).catch(() => {})
      }, delayMs).unref?.()
    },
  })
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://mock')
    if (url.pathname === '/__stats') return json(res, 200, stats)
    if (url.pathname === '/__reset') {
      for (const k of Object.keys(stats)) delete stats[k]
      return json(res, 200, { ok: true })
    }
    const key = keyOf(req)
    const statKey = `${key} ${url.pathname}`
    stats[statKey] = (stats[statKey] ?? 0) + 1
    const body = req.method === 'POST' ? await readBody(req) : {}
    const delay = Number(key.match(/^mock-delay-(\d+)/)?.[1] ?? delayMs)
    if (delay > 0) await sleep(delay)
    // Asynchronous-task suppliers (midjourney-proxy under /mj, Suno-API under /suno): mock-tasks.mjs.
    if (taskMock.handles(url.pathname)) {
      const answer = taskMock.handle(req.method, url.pathname, (name) => req.headers[name], body)
      return json(res, answer.status, answer.body)
    }
    const tooLarge = requestTooLarge(url.pathname, body, tpmLimit(key))
    if (tooLarge) {
      const text = JSON.stringify(tooLarge.body)
      res.writeHead(tooLarge.status, { ...tooLarge.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      return res.end(text)
    }
    const mode = key.startsWith('mock-') ? key.slice(5) : ''
    switch (mode) {
      case '500':
        return openAIError(res, 500, 'The mock upstream failed', 'server_error')
      case '429':
        return openAIError(res, 429, 'Rate limit reached for requests', 'rate_limit_error', 'rate_limit_exceeded')
      case '401':
        return openAIError(res, 401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key')
      case '400':
        return openAIError(res, 400, 'Bad request from the mock', 'invalid_request_error')
      case 'quota':
        return openAIError(res, 429, 'You exceeded your current quota', 'insufficient_quota', 'insufficient_quota')
      case 'hang':
        return
      case 'reset':
        return req.socket.destroy()
    }
    const p = url.pathname
    const helpers = { json, sse, usageOf, replyPieces, REPLY, openAIChat, anthropicMessages, geminiGenerate }
    if ((await supplierRoute(req, res, p, body, req.rawBody ?? Buffer.alloc(0), mode, helpers)) !== false) return
    if (p.endsWith('/chat/completions')) return openAIChat(req, res, body, mode)
    if (p.endsWith('/completions')) return openAICompletion(res, body, mode)
    if (p.endsWith('/embeddings')) {
      const inputs = Array.isArray(body.input) ? body.input : [body.input]
      const { prompt } = usageOf(body)
      return json(res, 200, {
        object: 'list',
        model: body.model,
        data: inputs.map((_, index) => ({
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? Buffer.from(new Float32Array([0.1, 0.2, 0.3, 0.4]).buffer).toString('base64') : [0.1, 0.2, 0.3, 0.4],
        })),
        usage: { prompt_tokens: prompt, total_tokens: prompt },
      })
    }
    if (p.endsWith('/moderations')) {
      return json(res, 200, { id: 'modr-mock', model: body.model ?? 'omni-moderation-latest', results: [{ flagged: false, categories: {}, category_scores: {} }] })
    }
    if (p.endsWith('/images/generations') || p.endsWith('/images/edits') || p.endsWith('/images/variations')) {
      const n = Number(body.n ?? 1)
      return json(res, 200, { created: Math.floor(Date.now() / 1000), data: Array.from({ length: n }, () => ({ url: 'https://example.invalid/mock.png' })) })
    }
    if (p.endsWith('/audio/speech')) {
      const audio = Buffer.alloc(1024, 1)
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length })
      return res.end(audio)
    }
    if (p.endsWith('/audio/transcriptions') || p.endsWith('/audio/translations')) {
      return json(res, 200, { text: 'mock transcription' })
    }
    if (p.endsWith('/rerank')) {
      const docs = body.documents ?? []
      return json(res, 200, {
        id: 'rerank-mock',
        results: docs.map((_, index) => ({ index, relevance_score: 1 / (index + 1) })),
        usage: { prompt_tokens: usageOf({ input: [body.query, ...docs.map(String)] }).prompt, total_tokens: 0 },
      })
    }
    if (p.endsWith('/messages')) return anthropicMessages(res, body, mode)
    const gemini = p.match(/\/models\/([^/:]+):(generateContent|streamGenerateContent)$/)
    if (gemini) return geminiGenerate(res, body, gemini[1], gemini[2] === 'streamGenerateContent', mode)
    if (p.endsWith('/models') || p.endsWith('/v1beta/models')) {
      if (p.includes('v1beta')) return json(res, 200, { models: [{ name: 'models/gemini-mock', supportedGenerationMethods: ['generateContent'] }] })
      return json(res, 200, { object: 'list', data: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'].map((id) => ({ id, object: 'model', owned_by: 'mock' })) })
    }
    if (p.endsWith('/dashboard/billing/subscription')) return json(res, 200, { hard_limit_usd: 100, has_payment_method: true })
    if (p.endsWith('/dashboard/billing/usage')) return json(res, 200, { total_usage: 2500 })
    if (p.endsWith('/user/balance')) return json(res, 200, { is_available: true, balance_infos: [{ currency: 'USD', total_balance: '42.50' }] })
    return openAIError(res, 404, `Unknown mock path ${p}`, 'invalid_request_error')
  })
  server.keepAliveTimeout = 60_000
  attachRealtime(server)
  await new Promise((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const url = `http://${host}:${address.port}`
  return {
    url,
    server,
    stats,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const mock = await startMockUpstream()
  console.log(`Mock upstream on ${mock.url} (OpenAI base URL ${mock.url}/v1). Keys like mock-500, mock-429, mock-delay-60 change its behaviour.`)
}
