/** Bedrock Converse answer → OpenAI chat completion, and Converse usage → billing usage. */
import type { Usage } from '../../billing/formula'
import { toOpenAIUsage } from '../openai/usage'

export interface ConverseUsage {
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  cacheReadInputTokens?: number
  cacheWriteInputTokens?: number
}

/** `inputTokens` excludes cached tokens; the billed prompt is all three, with the cache kinds as extras. */
export function fromConverseUsage(u: ConverseUsage): Usage {
  const cacheRead = u.cacheReadInputTokens ?? 0
  const cacheWrite = u.cacheWriteInputTokens ?? 0
  const extra: Usage['extra'] = {}
  if (cacheRead) extra.cached_read_tokens = cacheRead
  if (cacheWrite) extra.cached_write_tokens = cacheWrite
  return {
    promptTokens: (u.inputTokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: u.outputTokens ?? 0,
    ...(cacheRead || cacheWrite ? { extra } : {}),
  }
}

export function finishReason(stop: string | null | undefined): string | null {
  switch (stop) {
    case undefined:
    case null:
      return null
    case 'max_tokens':
      return 'length'
    case 'tool_use':
      return 'tool_calls'
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter'
    default:
      return 'stop'
  }
}

export function toOpenAIChat(body: any, model: string): { body: unknown; usage: Usage; text: string } {
  let content = ''
  let reasoning = ''
  const toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = []
  for (const block of body?.output?.message?.content ?? []) {
    if (typeof block.text === 'string') content += block.text
    else if (block.reasoningContent?.reasoningText) reasoning += block.reasoningContent.reasoningText.text ?? ''
    else if (block.toolUse) {
      toolCalls.push({
        id: String(block.toolUse.toolUseId),
        type: 'function',
        function: { name: String(block.toolUse.name), arguments: JSON.stringify(block.toolUse.input ?? {}) },
      })
    }
  }
  const usage = fromConverseUsage(body?.usage ?? {})
  const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length && !content ? null : content }
  if (reasoning) message.reasoning_content = reasoning
  if (toolCalls.length) message.tool_calls = toolCalls
  return {
    body: {
      id: `chatcmpl-${crypto.randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: finishReason(body?.stopReason) ?? 'stop' }],
      usage: toOpenAIUsage(usage),
    },
    usage,
    text: content + reasoning + toolCalls.map((t) => t.function.name + t.function.arguments).join(''),
  }
}
