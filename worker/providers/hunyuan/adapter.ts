/**
 * Tencent Hunyuan (type 40): the Tencent Cloud API 3.0 ChatCompletions action, TC3-HMAC-SHA256
 * signed with the `SecretId|SecretKey` key; PascalCase bodies and streams converted to OpenAI shape.
 */
import type { ChatRequest } from '../chat-types'
import type { ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { MalformedUpstreamError, upstreamJson } from '../../lib/upstream-error'
import { toHunyuanRequest } from './request'
import { HunyuanStream, hunyuanError, toOpenAIChat } from './response'
import { TC3_CONTENT_TYPE, tc3Authorization } from './sign'
import { keyProblemMessage } from '../../../shared/contract/key-format'

export const HUNYUAN_BASE_URL = 'https://hunyuan.tencentcloudapi.com'
export const HUNYUAN_VERSION = '2023-09-01'

export const hunyuanKeyProblem = (key: string) => keyProblemMessage(40, key)

export const hunyuanAdapter: ProviderAdapter = {
  supports: (op) => op === 'chat',
  async buildRequest(call, channel) {
    const problem = hunyuanKeyProblem(channel.key)
    if (problem) throw new Error(problem)
    const [secretId, secretKey] = channel.key.split('|').map((p) => p.trim()) as [string, string]
    const url = joinUrl(channel.baseUrl || HUNYUAN_BASE_URL, '/')
    const body = JSON.stringify(toHunyuanRequest(call.json as unknown as ChatRequest, call.model, call.stream))
    const timestamp = Math.floor(Date.now() / 1000)
    const authorization = await tc3Authorization({ secretId, secretKey, host: new URL(url).host, action: 'ChatCompletions', body, timestamp })
    const headers: Record<string, string> = {
      authorization,
      'content-type': TC3_CONTENT_TYPE,
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': HUNYUAN_VERSION,
      'x-tc-timestamp': String(timestamp),
    }
    if (channel.other) headers['x-tc-region'] = channel.other
    return new Request(url, { method: 'POST', headers, body })
  },
  async parseResponse(call, res) {
    const body = await upstreamJson<any>(res)
    const error = hunyuanError(body)
    // Tencent Cloud answers 200 with the failure inside: the relay treats it as an upstream failure.
    if (error) throw new MalformedUpstreamError(`Hunyuan ${error.code ?? 'error'}: ${error.message}`)
    return { kind: 'json', ...toOpenAIChat(body, call.model) }
  },
  createStream: (call) => new HunyuanStream(call),
  /** A stream request that failed answers 200 with a JSON body instead of SSE: pass it on as one event. */
  toSseStream(res) {
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) return res
    const sse = res.text().then((text) => `event: error\ndata: ${text.replace(/\n/g, '')}\n\n`)
    return new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(await sse))
          controller.close()
        },
      }),
      { status: res.status, headers: { 'content-type': 'text/event-stream' } }
    )
  },
  parseError(_status, body) {
    try {
      const error = hunyuanError(JSON.parse(body))
      if (error) return error
    } catch {
      // not JSON
    }
    return errorFromBody(body)
  },
}
