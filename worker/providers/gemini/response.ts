/** Gemini GenerateContentResponse → OpenAI chat completion (answer and stream chunks) and usage. */
import type { Usage } from '../../billing/formula'
import { toOpenAIUsage } from '../openai/usage'

export interface GeminiUsage {
  promptTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  cachedContentTokenCount?: number
  totalTokenCount?: number
}

export function fromGeminiUsage(u: GeminiUsage): Usage {
  const thoughts = u.thoughtsTokenCount ?? 0
  const extra: Usage['extra'] = {}
  if (thoughts) extra.reasoning_tokens = thoughts
  if (u.cachedContentTokenCount) extra.cached_tokens = u.cachedContentTokenCount
  return {
    promptTokens: u.promptTokenCount ?? 0,
    completionTokens: (u.candidatesTokenCount ?? 0) + thoughts,
    ...(Object.keys(extra).length ? { extra } : {}),
  }
}

export function geminiFinish(reason: string | undefined, hasTools: boolean): string | null {
  if (!reason) return null
  if (hasTools) return 'tool_calls'
  if (reason === 'MAX_TOKENS') return 'length'
  if (reason === 'SAFETY' || reason === 'RECITATION' || reason === 'BLOCKLIST' || reason === 'PROHIBITED_CONTENT') return 'content_filter'
  return 'stop'
}

/** Text, reasoning and tool calls of one candidate's parts (tool call ids are generated). */
export function candidateDelta(parts: any[] | undefined, toolOffset = 0) {
  let content = ''
  let reasoning = ''
  const toolCalls: any[] = []
  for (const part of parts ?? []) {
    if (part.functionCall) {
      toolCalls.push({
        index: toolOffset + toolCalls.length,
        id: `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`,
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      })
    } else if (typeof part.text === 'string') {
      if (part.thought) reasoning += part.text
      else content += part.text
    }
  }
  return { content, reasoning, toolCalls }
}

export function toOpenAIChat(body: any, model: string) {
  const choices = (body.candidates ?? []).map((c: any, i: number) => {
    const { content, reasoning, toolCalls } = candidateDelta(c.content?.parts)
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: toolCalls.length && !content ? null : content,
    }
    if (reasoning) message.reasoning_content = reasoning
    if (toolCalls.length) message.tool_calls = toolCalls.map(({ index: _i, ...t }) => t)
    return { index: c.index ?? i, message, finish_reason: geminiFinish(c.finishReason ?? 'STOP', toolCalls.length > 0) }
  })
  const usage = fromGeminiUsage(body.usageMetadata ?? {})
  const text = choices
    .map(
      (c: any) => `${c.message.content ?? ''}${c.message.reasoning_content ?? ''}${(c.message.tool_calls ?? []).map((t: any) => t.function.name + t.function.arguments).join('')}`
    )
    .join('')
  return {
    body: {
      id: `chatcmpl-${body.responseId ?? crypto.randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.modelVersion ?? model,
      choices,
      usage: toOpenAIUsage(usage),
    },
    usage: body.usageMetadata ? usage : undefined,
    text,
  }
}
