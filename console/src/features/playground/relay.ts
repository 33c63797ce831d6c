/**
 * The playground's calls to the real relay with an API key (not the console session):
 * GET /v1/models (what the key may use) and a streamed POST /v1/chat/completions read through
 * fetch + a ReadableStream reader and the SSE decoder the relay uses (shared/contract/sse.ts). Relay failures — an OpenAI error envelope
 * `{error:{message,type,code}}` as the HTTP answer or as an event inside the stream — become
 * RelayError (deliberately not ApiError: a 401 from a bad key must not end the console session).
 */
import { SseDecoder } from '@contract/sse'
import { apiUrl } from '@/lib/api-origin'

export class RelayError extends Error {
  readonly status: number
  readonly type?: string
  readonly code?: string | number | null

  constructor(message: string, status: number, type?: string, code?: string | number | null) {
    super(message)
    this.name = 'RelayError'
    this.status = status
    this.type = type
    this.code = code
  }
}

interface ErrorEnvelope {
  error?: { message?: string; type?: string; code?: string | number | null } | string
}

function envelopeError(body: ErrorEnvelope, status: number): RelayError | null {
  if (!body || body.error === undefined || body.error === null) return null
  if (typeof body.error === 'string') return new RelayError(body.error, status)
  return new RelayError(body.error.message || `HTTP ${status}`, status, body.error.type, body.error.code)
}

async function failure(res: Response): Promise<RelayError> {
  const text = await res.text().catch(() => '')
  try {
    const err = envelopeError(JSON.parse(text) as ErrorEnvelope, res.status)
    if (err) return err
  } catch {
    // not JSON: fall through to the status text
  }
  return new RelayError(text.trim().slice(0, 300) || res.statusText || `HTTP ${res.status}`, res.status)
}

const authHeaders = (key: string) => ({ Authorization: `Bearer ${key}` })

export async function listModels(key: string, signal?: AbortSignal): Promise<string[]> {
  const res = await fetch(apiUrl('/v1/models'), { headers: authHeaders(key), credentials: 'omit', signal })
  if (!res.ok) throw await failure(res)
  const body = (await res.json()) as { data?: { id: string }[] }
  return (body.data ?? []).map((m) => m.id).sort((a, b) => a.localeCompare(b))
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatRequest {
  model: string
  messages: ChatTurn[]
  temperature?: number
  max_tokens?: number
}

export interface ChatUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

export interface StreamResult {
  finishReason: string | null
  usage: ChatUsage | null
}

interface ChunkChoice {
  delta?: { content?: string | null }
  message?: { content?: string | null }
  finish_reason?: string | null
}

interface Chunk extends ErrorEnvelope {
  choices?: ChunkChoice[]
  usage?: ChatUsage | null
}

/**
 * Streams a chat completion; `onDelta` receives each piece of the answer as it arrives. Resolves
 * at `[DONE]` (or the end of the stream), rejects with RelayError on a relay error and with an
 * AbortError when `signal` aborts (the pieces received so far stay with the caller).
 */
export async function streamChat(key: string, request: ChatRequest, onDelta: (text: string) => void, signal: AbortSignal): Promise<StreamResult> {
  const res = await fetch(apiUrl('/v1/chat/completions'), {
    method: 'POST',
    headers: { ...authHeaders(key), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
    credentials: 'omit',
    signal,
  })
  if (!res.ok) throw await failure(res)
  const result: StreamResult = { finishReason: null, usage: null }

  // An upstream that ignores `stream` answers with one JSON body.
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const body = (await res.json()) as Chunk
    const err = envelopeError(body, res.status)
    if (err) throw err
    const choice = body.choices?.[0]
    if (choice?.message?.content) onDelta(choice.message.content)
    return { finishReason: choice?.finish_reason ?? null, usage: body.usage ?? null }
  }

  let done = false
  const onData = (data: string) => {
    if (done) return
    if (data.trim() === '[DONE]') {
      done = true
      return
    }
    let chunk: Chunk
    try {
      chunk = JSON.parse(data) as Chunk
    } catch {
      return // a keep-alive or a malformed line: skip it
    }
    const err = envelopeError(chunk, res.status)
    if (err) throw err
    const choice = chunk.choices?.[0]
    if (choice?.delta?.content) onDelta(choice.delta.content)
    if (choice?.finish_reason) result.finishReason = choice.finish_reason
    if (chunk.usage) result.usage = chunk.usage
  }

  const reader = res.body!.getReader()
  const decoder = new SseDecoder()
  let ended = false
  try {
    while (!done) {
      const read = await reader.read()
      if (read.done) {
        ended = true
        for (const event of decoder.end()) onData(event.data)
        break
      }
      for (const event of decoder.push(read.value)) onData(event.data)
    }
  } finally {
    // [DONE], an error event or an abort: close the connection instead of reading it to the end.
    if (!ended) void reader.cancel().catch(() => undefined)
  }
  return result
}
