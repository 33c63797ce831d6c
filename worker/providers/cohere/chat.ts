/** OpenAI chat ↔ Cohere chat v2 (request, answer, usage). v2 messages are close to OpenAI's; the rest is renamed. */
import type { Usage } from '../../billing/formula'
import { stopList, textOf, type ChatRequest } from '../chat-types'
import { toOpenAIUsage } from '../openai/usage'

export function toCohereChat(req: ChatRequest, model: string, stream: boolean): Record<string, unknown> {
  const messages = req.messages.map((m) => {
    const role = m.role === 'developer' ? 'system' : m.role === 'function' ? 'tool' : m.role
    if (role === 'user' && Array.isArray(m.content)) return { role, content: m.content }
    if (role === 'assistant') {
      const text = textOf(m.content)
      return { role, ...(text ? { content: text } : {}), ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}) }
    }
    if (role === 'tool') return { role, tool_call_id: m.tool_call_id ?? m.name ?? '', content: textOf(m.content) }
    return { role, content: textOf(m.content) }
  })
  const out: Record<string, unknown> = { model, messages, stream }
  const maxTokens = req.max_completion_tokens ?? req.max_tokens
  if (maxTokens != null) out.max_tokens = maxTokens
  if (req.temperature != null) out.temperature = req.temperature
  if (req.top_p != null) out.p = req.top_p
  if (req.top_k != null) out.k = req.top_k
  const stop = stopList(req.stop)
  if (stop) out.stop_sequences = stop
  if (req.tools?.length) {
    out.tools = req.tools
    if (req.tool_choice === 'required') out.tool_choice = 'REQUIRED'
    else if (req.tool_choice === 'none') out.tool_choice = 'NONE'
  }
  if (req.response_format?.type === 'json_object') out.response_format = { type: 'json_object' }
  else if (req.response_format?.type === 'json_schema') out.response_format = { type: 'json_object', json_schema: req.response_format.json_schema?.schema }
  return out
}

/** Cohere bills `billed_units`; `tokens` (which count its own preamble) is the fallback. */
export function fromCohereUsage(u: any): Usage | undefined {
  const units = u?.billed_units ?? u?.tokens
  if (!units || typeof units.input_tokens !== 'number') return undefined
  const cached = typeof u.cached_tokens === 'number' && u.cached_tokens > 0 ? u.cached_tokens : 0
  return { promptTokens: units.input_tokens, completionTokens: units.output_tokens ?? 0, ...(cached ? { extra: { cached_tokens: cached } } : {}) }
}

export function cohereFinish(reason: unknown): string | null {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length'
    case 'TOOL_CALL':
      return 'tool_calls'
    case 'COMPLETE':
    case 'STOP_SEQUENCE':
      return 'stop'
    case undefined:
    case null:
      return null
    default:
      return 'stop'
  }
}

export function toOpenAIChat(body: any, model: string): { body: unknown; usage?: Usage; text: string } {
  const m = body?.message ?? {}
  const content = (m.content ?? []).map((c: any) => (c.type === 'text' ? (c.text ?? '') : '')).join('')
  const toolCalls = (m.tool_calls ?? []).map((t: any) => ({ id: t.id, type: 'function', function: { name: t.function?.name ?? '', arguments: t.function?.arguments ?? '{}' } }))
  const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length && !content ? null : content }
  if (m.tool_plan) message.reasoning_content = m.tool_plan
  if (toolCalls.length) message.tool_calls = toolCalls
  const usage = fromCohereUsage(body?.usage)
  return {
    body: {
      id: body?.id ?? `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: cohereFinish(body?.finish_reason) ?? 'stop' }],
      ...(usage ? { usage: toOpenAIUsage(usage) } : {}),
    },
    usage,
    text: content + (m.tool_plan ?? '') + toolCalls.map((t: any) => t.function.name + t.function.arguments).join(''),
  }
}
