/**
 * OpenAI and the OpenAI-compatible family (custom base URL and the presets in
 * ../compatible/presets.ts): the body passes through; streams get
 * `stream_options.include_usage` injected upstream and the usage chunk is captured.
 */
import type { Usage } from '../../billing/formula'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import type { SseEvent } from '../../../shared/contract/sse'
import type { ChannelInfo, ParsedResponse, ProviderAdapter, RelayCall, RelayOp, StreamTransformer, UpstreamError } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { fromOpenAIUsage, toOpenAIUsage } from './usage'
import { customPath } from '../plugins'

export const OPENAI_PATHS: Record<RelayOp, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  moderations: '/v1/moderations',
  'images.generations': '/v1/images/generations',
  'images.edits': '/v1/images/edits',
  'images.variations': '/v1/images/variations',
  'audio.speech': '/v1/audio/speech',
  'audio.transcriptions': '/v1/audio/transcriptions',
  'audio.translations': '/v1/audio/translations',
  rerank: '/v1/rerank',
}

/** Body sent upstream: the client's body with streaming usage requested. */
export function upstreamJson(call: RelayCall): string {
  const body = { ...call.json }
  if (call.stream && (call.op === 'chat' || call.op === 'completions')) {
    body.stream_options = { ...(body.stream_options as object | undefined), include_usage: true }
  }
  return JSON.stringify(body)
}

export function openAIRequest(url: string, call: RelayCall, headers: Record<string, string>): Request {
  if (call.form) return new Request(url, { method: 'POST', headers, body: call.form })
  return new Request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: upstreamJson(call),
  })
}

/** Completion text of a non-stream chat/completions answer (for counting when usage is missing). */
function answerText(op: RelayOp, body: any): string {
  if (!body || !Array.isArray(body.choices)) return ''
  if (op === 'completions') return body.choices.map((c: any) => c.text ?? '').join('')
  return body.choices
    .map((c: any) => {
      const m = c.message ?? {}
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map((t: any) => `${t.function?.name ?? ''}${t.function?.arguments ?? ''}`).join('') : ''
      return `${typeof m.content === 'string' ? m.content : ''}${m.reasoning_content ?? ''}${calls}`
    })
    .join('')
}

export async function parseOpenAIResponse(call: RelayCall, res: Response): Promise<ParsedResponse> {
  if (call.op === 'audio.speech') return { kind: 'raw', response: res }
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch (err) {
    if (call.op === 'audio.transcriptions' || call.op === 'audio.translations') {
      return { kind: 'raw', response: new Response(text, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'text/plain' } }) }
    }
    throw new MalformedUpstreamError(`upstream returned malformed JSON: ${(err as Error).message}`)
  }
  const usage = fromOpenAIUsage(body?.usage)
  const answer = call.op === 'audio.transcriptions' || call.op === 'audio.translations' ? String(body?.text ?? '') : answerText(call.op, body)
  return { kind: 'json', body, usage, text: answer, raw: text }
}

/** Pass-through stream: content chunks go out untouched; usage-only chunks are captured. */
export class OpenAIStream implements StreamTransformer {
  private captured: Usage | undefined
  private rawUsageChunk: string | undefined
  private readonly chunks: string[] = []
  /** The first payload: its id, model and created, read only for a synthetic usage chunk. */
  private first: string | undefined
  private failure: UpstreamError | undefined

  constructor(readonly call: RelayCall) {}

  error() {
    return this.failure
  }

  onEvent(event: SseEvent): string[] {
    const data = event.data
    if (data === '[DONE]' || data === '') return []
    // Some compatible suppliers (OpenRouter…) report failures mid-stream as {"error": {...}}.
    if (data.startsWith('{"error"')) {
      this.failure = errorFromBody(data)
      return []
    }
    this.first ??= data
    if (data.includes('"usage"')) {
      let parsed: any
      try {
        parsed = JSON.parse(data)
      } catch {
        return [data]
      }
      const usage = fromOpenAIUsage(parsed?.usage)
      if (usage) {
        this.captured = usage
        if (!Array.isArray(parsed.choices) || parsed.choices.length === 0) {
          this.rawUsageChunk = data
          return []
        }
      }
    }
    this.chunks.push(data)
    return [data]
  }

  private meta(): { id?: unknown; model?: unknown; created?: unknown } {
    try {
      return this.first ? (JSON.parse(this.first) ?? {}) : {}
    } catch {
      return {}
    }
  }

  usage() {
    return this.captured
  }

  text(): string {
    let out = ''
    for (const c of this.chunks) {
      try {
        const j = JSON.parse(c)
        for (const choice of j.choices ?? []) {
          out += choice.text ?? choice.delta?.content ?? ''
          out += choice.delta?.reasoning_content ?? ''
          for (const t of choice.delta?.tool_calls ?? []) out += `${t.function?.name ?? ''}${t.function?.arguments ?? ''}`
        }
      } catch {
        // skip unparsable chunk
      }
    }
    return out
  }

  usageChunk(usage: Usage): string {
    if (this.rawUsageChunk && this.captured === usage) return this.rawUsageChunk
    const meta = this.meta()
    return JSON.stringify({
      id: String(meta.id ?? '') || `chatcmpl-${crypto.randomUUID()}`,
      object: this.call.op === 'completions' ? 'text_completion' : 'chat.completion.chunk',
      created: Number(meta.created ?? 0) || Math.floor(Date.now() / 1000),
      model: String(meta.model ?? '') || this.call.model,
      choices: [],
      usage: toOpenAIUsage(usage),
    })
  }
}

/** OpenAI path of an operation under another version segment ('v4' → /v4/chat/completions, '' → /chat/completions). */
export const versionedPath = (path: string, version = 'v1') => (version ? path.replace(/^\/v1\//, `/${version}/`) : path.replace(/^\/v1/, ''))

export function openAIBaseAdapter(opts: {
  defaultBaseUrl: string
  ops?: RelayOp[]
  /** Version segment of the supplier's paths (default v1; '' when the base URL already ends at the API root). */
  apiVersion?: string
  authHeaders?: (key: string) => Record<string, string>
  /** A failure the supplier reports inside a 2xx JSON answer (MiniMax's base_resp), or undefined. */
  bodyError?: (body: any) => UpstreamError | undefined
}): ProviderAdapter {
  const ops = new Set<RelayOp>(opts.ops ?? (Object.keys(OPENAI_PATHS) as RelayOp[]))
  const auth = opts.authHeaders ?? ((key: string) => ({ authorization: `Bearer ${key}` }))
  const url = (channel: ChannelInfo, path: string) => joinUrl(channel.baseUrl || opts.defaultBaseUrl, versionedPath(path, opts.apiVersion))
  return {
    supports: (op) => ops.has(op),
    buildRequest(call: RelayCall, channel: ChannelInfo) {
      const custom = customPath(channel, call.op)
      return openAIRequest(custom ? joinUrl(channel.baseUrl || opts.defaultBaseUrl, custom) : url(channel, OPENAI_PATHS[call.op]), call, auth(channel.key))
    },
    parseResponse: opts.bodyError
      ? async (call, res) => {
          const parsed = await parseOpenAIResponse(call, res)
          const error = parsed.kind === 'json' ? opts.bodyError!(parsed.body) : undefined
          if (error) throw new MalformedUpstreamError(`upstream error${error.code ? ` ${error.code}` : ''}: ${error.message}`)
          return parsed
        }
      : parseOpenAIResponse,
    createStream: (call) => new OpenAIStream(call),
    parseError: (_status, body) => {
      if (opts.bodyError) {
        try {
          const error = opts.bodyError(JSON.parse(body))
          if (error) return error
        } catch {
          // not JSON
        }
      }
      return errorFromBody(body)
    },
    modelsRequest: (channel) => new Request(url(channel, '/v1/models'), { headers: auth(channel.key) }),
    parseModels: (body: any) => (Array.isArray(body?.data) ? body.data.map((m: any) => String(m.id)) : []),
  }
}
