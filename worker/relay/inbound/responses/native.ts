/**
 * Native pass-through of the Responses API to OpenAI channels (type 1): the client's body goes to
 * the channel's /v1/responses with the upstream model and the wallet's output cap; a conversation
 * continued from a stored response is sent inline as input items (the channel may not know the
 * gateway's ids). For billing, a native answer is read as a chat completion and a native stream
 * through a small transformer that collects text, usage and failures.
 */
import type { Usage } from '../../../billing/formula'
import { fromOpenAIUsage } from '../../../providers/openai/usage'
import type { RelayCall, StreamTransformer, UpstreamError } from '../../../providers/types'
import { errorFromBody, joinUrl } from '../../../providers/url'
import type { SseEvent } from '../../../../shared/contract/sse'
import type { NativeSpec } from '../native'
import { withoutPremiumOptions } from '../../premium-options'
import type { ChatMessage } from './request'

/** Channel types that serve the Responses API themselves. */
export const RESPONSES_NATIVE_TYPES = [1] as const

/** Stored chat messages → Responses input items. */
export function chatToItems(messages: ChatMessage[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = []
  for (const m of messages) {
    if (m.role === 'tool') {
      items.push({ type: 'function_call_output', call_id: m.tool_call_id, output: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) })
      continue
    }
    if (m.role === 'assistant') {
      if (typeof m.content === 'string' && m.content) items.push({ role: 'assistant', content: m.content })
      for (const call of (m.tool_calls as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? []) {
        items.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments })
      }
      continue
    }
    const content = Array.isArray(m.content)
      ? (m.content as Record<string, any>[]).map((p) =>
          p.type === 'image_url'
            ? { type: 'input_image', image_url: p.image_url?.url ?? p.image_url }
            : p.type === 'file'
              ? { type: 'input_file', ...p.file }
              : { type: 'input_text', text: p.text ?? '' }
        )
      : m.content
    items.push({ role: m.role, content })
  }
  return items
}

/** A native Response → its chat view (usage, text, finish) for billing and the response cache. */
export function responseToChat(answer: Record<string, any>): { body: unknown; usage?: Usage; text: string } {
  const output: Record<string, any>[] = Array.isArray(answer.output) ? answer.output : []
  const content = output
    .filter((o) => o.type === 'message')
    .flatMap((o) => (o.content ?? []).map((p: any) => p.text ?? p.refusal ?? ''))
    .join('')
  const reasoning = output
    .filter((o) => o.type === 'reasoning')
    .flatMap((o) => (o.summary ?? []).map((s: any) => s.text ?? ''))
    .join('')
  const calls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: o.call_id, type: 'function', function: { name: o.name, arguments: o.arguments ?? '' } }))
  const finish = answer.status === 'incomplete' ? (answer.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length') : calls.length ? 'tool_calls' : 'stop'
  const message: Record<string, unknown> = { role: 'assistant', content: content || (calls.length ? null : '') }
  if (reasoning) message.reasoning_content = reasoning
  if (calls.length) message.tool_calls = calls
  return {
    body: {
      id: answer.id,
      object: 'chat.completion',
      created: answer.created_at,
      model: answer.model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: answer.usage,
    },
    usage: responsesUsageToBilling(answer.usage),
    text: content + reasoning + calls.map((c) => c.function.name + c.function.arguments).join(''),
  }
}

function responsesUsageToBilling(u: Record<string, any> | undefined): Usage | undefined {
  const usage = fromOpenAIUsage(u)
  const reasoning = Number(u?.output_tokens_details?.reasoning_tokens ?? 0)
  if (!usage || !(reasoning > 0)) return usage
  return { ...usage, extra: { ...usage.extra, reasoning_tokens: reasoning } }
}

/** Reads a native Responses stream for billing: text deltas, the final usage, failures. */
class ResponsesUsageStream implements StreamTransformer {
  private collected = ''
  private final: Usage | undefined
  private failure: UpstreamError | undefined

  onEvent(event: SseEvent): string[] {
    let data: Record<string, any>
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    const type = data.type ?? event.event
    if (type === 'response.output_text.delta' || type === 'response.function_call_arguments.delta' || type === 'response.reasoning_summary_text.delta') {
      this.collected += String(data.delta ?? '')
    } else if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') {
      // A response.failed event is the channel's own well-formed end: it passes through to the client.
      this.final = responsesUsageToBilling(data.response?.usage) ?? this.final
    } else if (type === 'error') {
      this.failure = { message: String(data.message ?? 'upstream stream error'), type: 'upstream_error', code: data.code ?? undefined }
    }
    return []
  }
  usage = () => this.final
  text = () => this.collected
  error = () => this.failure
  usageChunk = () => '{}'
}

export function responsesNativeSpec(history: ChatMessage[]): NativeSpec {
  return {
    channelTypes: RESPONSES_NATIVE_TYPES,
    prepare(body, call: RelayCall) {
      const out: Record<string, unknown> = withoutPremiumOptions({ ...body, model: call.model })
      delete out.stream
      delete out.previous_response_id
      if (call.stream) out.stream = true
      // The one output limit the wallet held for (reasoning tokens count inside it).
      if (call.maxOutputTokens !== undefined) out.max_output_tokens = call.maxOutputTokens
      if (history.length) {
        const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as unknown[])
        out.input = [...chatToItems(history), ...input]
      }
      return out
    },
    buildRequest: (body, _call, channel) =>
      new Request(joinUrl(channel.baseUrl || 'https://api.openai.com', '/v1/responses'), {
        method: 'POST',
        headers: { authorization: `Bearer ${channel.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    toChat: (answer) => responseToChat(answer as Record<string, any>),
    chatStream: () => new ResponsesUsageStream(),
    parseError: (_status, text) => errorFromBody(text),
  }
}
