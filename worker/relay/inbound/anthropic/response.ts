/**
 * Internal chat answer → Anthropic Messages answer (thinking, text and tool_use blocks, stop_reason,
 * usage with cache reads), and gateway errors → Anthropic's error envelope and types.
 */
import type { ApiError } from '../../../lib/errors'

/** chat finish_reason → Anthropic stop_reason. */
export function stopReason(finish: unknown): string {
  if (finish === 'length') return 'max_tokens'
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use'
  if (finish === 'content_filter') return 'refusal'
  return 'end_turn'
}

/** chat usage → Anthropic usage: input_tokens exclude the prompt's cached (read) tokens. */
export function anthropicUsage(u: Record<string, any> | undefined) {
  const prompt = Number(u?.prompt_tokens ?? 0) || 0
  const cached = Number(u?.prompt_tokens_details?.cached_tokens ?? 0) || 0
  const out: Record<string, number> = { input_tokens: Math.max(0, prompt - cached), output_tokens: Number(u?.completion_tokens ?? 0) || 0 }
  if (cached) out.cache_read_input_tokens = cached
  return out
}

export const messageId = (id: unknown) =>
  typeof id === 'string' && id.startsWith('msg_') ? id : `msg_${typeof id === 'string' && id ? id.replace(/^chatcmpl-/, '') : crypto.randomUUID().replace(/-/g, '')}`

function toolInput(args: unknown): unknown {
  if (typeof args !== 'string' || !args.trim()) return {}
  try {
    return JSON.parse(args)
  } catch {
    return { raw: args }
  }
}

export function toMessage(answer: Record<string, any>): Record<string, unknown> {
  const choice = answer.choices?.[0] ?? {}
  const msg = choice.message ?? {}
  const content: Record<string, unknown>[] = []
  const reasoning = msg.reasoning_content ?? msg.reasoning
  if (typeof reasoning === 'string' && reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' })
  const said = typeof msg.content === 'string' ? msg.content : Array.isArray(msg.content) ? msg.content.map((p: any) => p?.text ?? '').join('') : ''
  if (said) content.push({ type: 'text', text: said })
  for (const call of msg.tool_calls ?? []) {
    content.push({ type: 'tool_use', id: call.id || `toolu_${crypto.randomUUID().replace(/-/g, '')}`, name: call.function?.name ?? '', input: toolInput(call.function?.arguments) })
  }
  return {
    id: messageId(answer.id),
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content,
    stop_reason: stopReason(choice.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(answer.usage),
  }
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
}

export const anthropicErrorBody = (status: number, message: string) => ({
  type: 'error',
  error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
})

export function anthropicErrorResponse(err: ApiError, requestId?: string): Response {
  const message = requestId ? `${err.message} (request id: ${requestId})` : err.message
  return Response.json({ ...anthropicErrorBody(err.status, message), ...(requestId ? { request_id: requestId } : {}) }, { status: err.status })
}
