/** Hunyuan answers (`{Response:{Choices, Usage, Error}}`) and stream chunks → OpenAI shape and billing usage. */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import type { RelayCall, UpstreamError } from '../types'
import { toOpenAIUsage } from '../openai/usage'
import { ConvertedStream } from '../openai/chunk'

export function fromHunyuanUsage(u: any): Usage | undefined {
  if (!u || typeof u.PromptTokens !== 'number') return undefined
  const cached = u.PromptTokensDetails?.CachedTokens
  const reasoning = u.CompletionTokensDetails?.ReasoningTokens
  const extra: Usage['extra'] = {}
  if (cached) extra.cached_tokens = cached
  if (reasoning) extra.reasoning_tokens = reasoning
  return { promptTokens: u.PromptTokens, completionTokens: u.CompletionTokens ?? 0, ...(Object.keys(extra).length ? { extra } : {}) }
}

const finish = (r: unknown) => (typeof r === 'string' && r ? (r === 'tool_calls' ? 'tool_calls' : r === 'length' ? 'length' : r === 'sensitive' ? 'content_filter' : 'stop') : null)

const toolCalls = (calls: any[] | undefined, withIndex: boolean) =>
  calls?.map((c, i) => ({
    ...(withIndex ? { index: c.Index ?? i } : {}),
    id: c.Id,
    type: 'function',
    function: { name: c.Function?.Name ?? '', arguments: c.Function?.Arguments ?? '' },
  }))

/** Tencent Cloud reports failures inside a 200 answer: `{Response:{Error:{Code, Message}}}`. */
export function hunyuanError(body: any): UpstreamError | undefined {
  const e = body?.Response?.Error ?? body?.Error
  return e ? { message: String(e.Message ?? 'Hunyuan error'), code: e.Code != null ? String(e.Code) : undefined } : undefined
}

export function toOpenAIChat(body: any, model: string): { body: unknown; usage?: Usage; text: string } {
  const r = body?.Response ?? {}
  const choices = (r.Choices ?? []).map((c: any, index: number) => {
    const m = c.Message ?? {}
    const message: Record<string, unknown> = { role: 'assistant', content: m.Content ?? '' }
    if (m.ReasoningContent) message.reasoning_content = m.ReasoningContent
    if (m.ToolCalls?.length) message.tool_calls = toolCalls(m.ToolCalls, false)
    return { index, message, finish_reason: finish(c.FinishReason) ?? 'stop' }
  })
  const usage = fromHunyuanUsage(r.Usage)
  const text = choices
    .map((c: any) => `${c.message.content}${c.message.reasoning_content ?? ''}${(c.message.tool_calls ?? []).map((t: any) => t.function.name + t.function.arguments).join('')}`)
    .join('')
  return {
    body: {
      id: r.Id ?? `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: r.Created ?? Math.floor(Date.now() / 1000),
      model,
      choices,
      ...(usage ? { usage: toOpenAIUsage(usage) } : {}),
    },
    usage,
    text,
  }
}

/** Hunyuan SSE chunks (PascalCase, cumulative usage on each) → OpenAI chunks. */
export class HunyuanStream extends ConvertedStream {
  constructor(private readonly call: RelayCall) {
    super(call)
  }

  onEvent(event: SseEvent): string[] {
    if (event.data === '[DONE]') return []
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    const error = hunyuanError(data)
    if (error || event.event === 'error') {
      this.failure = error ?? { message: String(data.message ?? 'Hunyuan stream error') }
      return []
    }
    if (data.Id) this.id = data.Id
    if (data.Created) this.created = data.Created
    this.captured = fromHunyuanUsage(data.Usage) ?? this.captured
    return (data.Choices ?? []).map((c: any, index: number) => {
      const d = c.Delta ?? {}
      const delta: Record<string, unknown> = {}
      if (d.Role) delta.role = d.Role
      if (typeof d.Content === 'string' && (d.Content || !d.ToolCalls)) delta.content = d.Content
      if (d.ReasoningContent) delta.reasoning_content = d.ReasoningContent
      if (d.ToolCalls?.length) delta.tool_calls = toolCalls(d.ToolCalls, true)
      this.content += `${d.Content ?? ''}${d.ReasoningContent ?? ''}${(d.ToolCalls ?? []).map((t: any) => `${t.Function?.Name ?? ''}${t.Function?.Arguments ?? ''}`).join('')}`
      return JSON.stringify({
        id: this.id,
        object: 'chat.completion.chunk',
        created: this.created,
        model: this.call.model,
        choices: [{ index, delta, finish_reason: finish(c.FinishReason) }],
      })
    })
  }
}
