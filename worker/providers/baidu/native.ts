/**
 * Baidu Qianfan legacy "wenxinworkshop" API: model → endpoint map, OpenAI chat → ERNIE request
 * (system field, alternating user/assistant turns, functions), ERNIE answers and stream chunks →
 * OpenAI shape. Failures come as `{error_code, error_msg}`, often with HTTP 200.
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import { stopList, textOf, type ChatRequest } from '../chat-types'
import type { UpstreamError } from '../types'
import { fromOpenAIUsage, toOpenAIUsage } from '../openai/usage'
import { ConvertedStream } from '../openai/chunk'

/** Chat endpoints of the public ERNIE models; other names are taken as custom endpoint names. */
const CHAT_ENDPOINTS: Record<string, string> = {
  'ernie-4.0-8k': 'completions_pro',
  'ernie-4.0-turbo-8k': 'ernie-4.0-turbo-8k',
  'ernie-3.5-8k': 'completions',
  'ernie-speed-8k': 'ernie_speed',
  'ernie-speed-128k': 'ernie-speed-128k',
  'ernie-lite-8k': 'ernie-lite-8k',
  'ernie-tiny-8k': 'ernie-tiny-8k',
  'ernie-character-8k': 'ernie-char-8k',
}
const EMBED_ENDPOINTS: Record<string, string> = { 'embedding-v1': 'embedding-v1', 'bge-large-zh': 'bge_large_zh', 'bge-large-en': 'bge_large_en', 'tao-8k': 'tao_8k' }

export function nativePath(op: 'chat' | 'embeddings', model: string): string {
  const m = model.toLowerCase()
  return op === 'chat' ? `/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/${CHAT_ENDPOINTS[m] ?? m}` : `/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/${EMBED_ENDPOINTS[m] ?? m}`
}

export function toErnieRequest(req: ChatRequest, stream: boolean): Record<string, unknown> {
  const system: string[] = []
  const messages: Record<string, unknown>[] = []
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content))
    else if (m.role === 'assistant') {
      const call = m.tool_calls?.[0]
      messages.push({ role: 'assistant', content: textOf(m.content), ...(call ? { function_call: { name: call.function.name, arguments: call.function.arguments } } : {}) })
    } else if (m.role === 'tool' || m.role === 'function') messages.push({ role: 'function', name: m.name ?? m.tool_call_id ?? 'function', content: textOf(m.content) })
    else messages.push({ role: 'user', content: textOf(m.content) })
  }
  const out: Record<string, unknown> = { messages, stream }
  if (system.length) out.system = system.join('\n\n')
  if (req.temperature != null) out.temperature = Math.min(1, Math.max(0.01, req.temperature))
  if (req.top_p != null) out.top_p = req.top_p
  const max = req.max_completion_tokens ?? req.max_tokens
  if (max != null) out.max_output_tokens = max
  const stop = stopList(req.stop)
  if (stop) out.stop = stop
  if (req.user) out.user_id = req.user
  if (req.tools?.length)
    out.functions = req.tools.map((t) => ({
      name: t.function.name,
      description: t.function.description ?? '',
      parameters: t.function.parameters ?? { type: 'object', properties: {} },
    }))
  return out
}

export function ernieError(body: any): UpstreamError | undefined {
  return body && body.error_code ? { message: String(body.error_msg ?? 'Baidu error'), code: String(body.error_code) } : undefined
}

const finish = (reason: unknown, hasCall: boolean) => (hasCall ? 'tool_calls' : reason === 'length' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'stop')

export function fromErnieAnswer(body: any, model: string): { body: unknown; usage?: Usage; text: string } {
  const call = body.function_call
  const message: Record<string, unknown> = { role: 'assistant', content: call && !body.result ? null : (body.result ?? '') }
  if (call) message.tool_calls = [{ id: `call_${body.id ?? crypto.randomUUID()}`, type: 'function', function: { name: call.name, arguments: call.arguments ?? '{}' } }]
  const usage = fromOpenAIUsage(body.usage)
  return {
    body: {
      id: body.id ?? `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: body.created ?? Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: finish(body.finish_reason, Boolean(call)) }],
      ...(usage ? { usage: toOpenAIUsage(usage) } : {}),
    },
    usage,
    text: `${body.result ?? ''}${call ? `${call.name}${call.arguments ?? ''}` : ''}`,
  }
}

/** ERNIE stream chunks (`result` pieces, `is_end`, usage on each) → OpenAI chunks. */
export class ErnieStream extends ConvertedStream {
  private started = false

  onEvent(event: SseEvent): string[] {
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    const error = ernieError(data)
    if (error) {
      this.failure = error
      return []
    }
    if (data.id) this.id = data.id
    this.captured = fromOpenAIUsage(data.usage) ?? this.captured
    const out: string[] = []
    const delta: Record<string, unknown> = {}
    if (!this.started) delta.role = 'assistant'
    this.started = true
    if (data.result) delta.content = data.result
    if (data.function_call) {
      delta.tool_calls = [{ index: 0, id: `call_${this.id}`, type: 'function', function: { name: data.function_call.name, arguments: data.function_call.arguments ?? '' } }]
      this.content += `${data.function_call.name}${data.function_call.arguments ?? ''}`
    }
    this.content += data.result ?? ''
    if (Object.keys(delta).length) out.push(this.chunk(delta))
    if (data.is_end) out.push(this.chunk({}, finish(data.finish_reason, Boolean(data.function_call))))
    return out
  }
}
