/**
 * Baidu Qianfan / ERNIE (type 15). A Qianfan API key (bce-v3/…) uses the v2 OpenAI-compatible
 * endpoint; a legacy application key `APIKey|SecretKey` gets a cached access token and the native
 * wenxinworkshop API (chat, stream, functions, embeddings). Like Vertex, the legacy path does I/O:
 * the token exchange.
 */
import type { ChatRequest } from '../chat-types'
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import type { ProviderAdapter, RelayCall, StreamTransformer } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import { openAIBaseAdapter, parseOpenAIResponse } from '../openai/adapter'
import { ErnieStream, ernieError, fromErnieAnswer, nativePath, toErnieRequest } from './native'
import { accessTokenSource, BAIDU_AIP_URL, splitLegacyKey, type Fetcher } from './token'

export const QIANFAN_V2_URL = 'https://qianfan.baidubce.com'

/** The legacy API answers a failed stream request with JSON: pass it on as one SSE event. */
function jsonFailureAsSse(res: Response): Response {
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return res
  return new Response(
    new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${(await res.text()).replace(/\n/g, '')}\n\n`))
        controller.close()
      },
    }),
    { status: res.status, headers: { 'content-type': 'text/event-stream' } }
  )
}

/** ERNIE answers carry `result`/`is_end` and no `choices`: the answer's shape says which API spoke. */
const isErnie = (body: any) => body && typeof body === 'object' && !Array.isArray(body.choices) && ('result' in body || 'is_end' in body || 'function_call' in body)

/** Picks the ERNIE or the OpenAI converter from the first chunk of the stream. */
class BaiduStream implements StreamTransformer {
  private inner: StreamTransformer | undefined
  constructor(
    private readonly call: RelayCall,
    private readonly openAI: (call: RelayCall) => StreamTransformer
  ) {}

  private pick(event: SseEvent): StreamTransformer {
    if (this.inner) return this.inner
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return this.openAI(this.call)
    }
    this.inner = isErnie(data) || ernieError(data) ? new ErnieStream(this.call) : this.openAI(this.call)
    return this.inner
  }

  onEvent(event: SseEvent) {
    if (!this.inner && (event.data === '[DONE]' || event.data === '')) return []
    return this.pick(event).onEvent(event)
  }
  usage() {
    return this.inner?.usage()
  }
  text() {
    return this.inner?.text() ?? ''
  }
  error() {
    return this.inner?.error?.()
  }
  usageChunk(usage: Usage) {
    return (this.inner ?? this.openAI(this.call)).usageChunk(usage)
  }
}

export function createBaiduAdapter(fetcher: Fetcher): ProviderAdapter {
  const v2 = openAIBaseAdapter({ defaultBaseUrl: QIANFAN_V2_URL, apiVersion: 'v2', ops: ['chat', 'embeddings'] })
  const accessToken = accessTokenSource(fetcher)
  return {
    ...v2,
    async buildRequest(call, channel) {
      const legacy = splitLegacyKey(channel.key)
      if (!legacy) return v2.buildRequest(call, channel)
      const base = channel.baseUrl || BAIDU_AIP_URL
      const token = await accessToken(base, legacy)
      const op = call.op === 'embeddings' ? 'embeddings' : 'chat'
      const json = call.json ?? {}
      const body =
        op === 'chat'
          ? toErnieRequest(json as unknown as ChatRequest, call.stream)
          : { input: Array.isArray(json.input) ? json.input : [json.input], ...(json.user ? { user_id: json.user } : {}) }
      const req = new Request(`${joinUrl(base, nativePath(op, call.model))}?access_token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return req
    },
    async parseResponse(call, res) {
      const text = await res.text()
      let body: any
      try {
        body = JSON.parse(text)
      } catch (err) {
        throw new MalformedUpstreamError(`upstream returned malformed JSON: ${(err as Error).message}`)
      }
      const error = ernieError(body)
      if (error) throw new MalformedUpstreamError(`Baidu error ${error.code}: ${error.message}`)
      if (call.op === 'chat' && isErnie(body)) return { kind: 'json', ...fromErnieAnswer(body, call.model) }
      return parseOpenAIResponse(call, new Response(text, { status: res.status, headers: res.headers }))
    },
    createStream: (call) => new BaiduStream(call, v2.createStream),
    toSseStream: jsonFailureAsSse,
    parseError(status, body) {
      try {
        const error = ernieError(JSON.parse(body))
        if (error) return error
      } catch {
        // not JSON
      }
      return errorFromBody(body)
    },
  }
}

export const baiduAdapter = createBaiduAdapter((req) => fetch(req))
