/** Anthropic Messages answer → OpenAI chat completion, and Anthropic usage → billing usage. */
import type { Usage } from '../../billing/formula'
import { toOpenAIUsage } from '../openai/usage'

export interface AnthropicUsage {
  input_tokens?: number
  output_tokens?: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
  /** The cache writes by lifetime (their sum is cache_creation_input_tokens). */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number }
}

/** Cache writes are 5-minute ones (cached_write_tokens) except those `cache_creation` says live 1 hour. */
export function fromAnthropicUsage(u: AnthropicUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? 0
  const cacheWrite = u.cache_creation_input_tokens ?? 0
  const hour = Math.min(cacheWrite, Math.max(0, Number(u.cache_creation?.ephemeral_1h_input_tokens) || 0))
  const extra: Usage['extra'] = {}
  if (cacheRead) extra.cached_read_tokens = cacheRead
  if (cacheWrite - hour) extra.cached_write_tokens = cacheWrite - hour
  if (hour) extra.cached_write_1h_tokens = hour
  return {
    promptTokens: (u.input_tokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: u.output_tokens ?? 0,
    ...(cacheRead || cacheWrite ? { extra } : {}),
  }
}

export const finishReason = (stop: string | null | undefined): string | null =>
  stop == null ? null : stop === 'max_tokens' ? 'length' : stop === 'tool_use' ? 'tool_calls' : 'stop'

export function toOpenAIChat(body: any): { body: unknown; usage: Usage; text: string } {
  let content = ''
  let reasoning = ''
  const toolCalls: unknown[] = []
  for (const block of body.content ?? []) {
    if (block.type === 'text') content += block.text ?? ''
    else if (block.type === 'thinking') reasoning += block.thinking ?? ''
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } })
    }
  }
  const usage = fromAnthropicUsage(body.usage ?? {})
  const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length && !content ? null : content }
  if (reasoning) message.reasoning_content = reasoning
  if (toolCalls.length) message.tool_calls = toolCalls
  return {
    body: {
      id: body.id ?? `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, finish_reason: finishReason(body.stop_reason) ?? 'stop' }],
      usage: toOpenAIUsage(usage),
    },
    usage,
    text: content + reasoning + toolCalls.map((t: any) => t.function.name + t.function.arguments).join(''),
  }
}
