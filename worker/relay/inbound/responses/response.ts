/**
 * Internal chat answer → OpenAI Responses object: output items (reasoning, message, function_call)
 * with msg_/fc_/rs_ ids, status from finish_reason, usage in Responses names, the echo of the
 * request's settings, and the assistant turn to store for previous_response_id.
 */
import type { ChatMessage, ResponsesRequest } from './request'

export interface ResponseContext {
  id: string
  createdAt: number
  req: ResponsesRequest
}

export const itemId = (prefix: 'msg' | 'fc' | 'rs') => `${prefix}_${crypto.randomUUID().replace(/-/g, '')}`

export function responsesUsage(u: Record<string, any> | undefined) {
  const input = Number(u?.prompt_tokens ?? 0) || 0
  const output = Number(u?.completion_tokens ?? 0) || 0
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Number(u?.prompt_tokens_details?.cached_tokens ?? 0) || 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: Number(u?.completion_tokens_details?.reasoning_tokens ?? 0) || 0 },
    total_tokens: input + output,
  }
}

/** finish_reason → the response's status and why it is incomplete. */
export function statusOf(finish: unknown): { status: 'completed' | 'incomplete'; incomplete_details: { reason: string } | null } {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }
  return { status: 'completed', incomplete_details: null }
}

/** The Response object around some output, echoing what the client asked for. */
export function responseObject(ctx: ResponseContext, fields: { status: string; model: string; output: unknown[]; usage?: unknown; incomplete_details?: unknown }) {
  const r = ctx.req
  const tools = (r.tools ?? []).map((t) =>
    t.type === 'mcp' ? t : { type: 'function', name: t.name, description: t.description ?? null, parameters: t.parameters ?? null, strict: t.strict ?? null }
  )
  return {
    id: ctx.id,
    object: 'response',
    created_at: ctx.createdAt,
    status: fields.status,
    error: null,
    incomplete_details: fields.incomplete_details ?? null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: r.previous_response_id ?? null,
    reasoning: { effort: r.reasoning?.effort ?? null, summary: null },
    store: r.store ?? true,
    temperature: r.temperature ?? null,
    text: { format: r.text?.format ?? { type: 'text' } },
    tool_choice: r.tool_choice ?? 'auto',
    tools,
    top_p: r.top_p ?? null,
    truncation: 'disabled',
    usage: fields.usage ?? null,
    user: r.user ?? null,
    metadata: r.metadata ?? {},
  }
}

/** The assistant turn of an answer, as a chat message for the stored conversation. */
export function assistantTurn(output: Record<string, any>[]): ChatMessage {
  const text = output
    .filter((o) => o.type === 'message')
    .flatMap((o) => o.content.map((p: any) => p.text ?? ''))
    .join('')
  const calls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: o.call_id, type: 'function', function: { name: o.name, arguments: o.arguments } }))
  return { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }
}

export function toResponse(ctx: ResponseContext, answer: Record<string, any>) {
  const choice = answer.choices?.[0] ?? {}
  const msg = choice.message ?? {}
  const output: Record<string, any>[] = []
  const reasoning = msg.reasoning_content ?? msg.reasoning
  if (typeof reasoning === 'string' && reasoning) output.push({ id: itemId('rs'), type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning }] })
  const said = typeof msg.content === 'string' ? msg.content : ''
  if (said || typeof msg.refusal === 'string') {
    const content = msg.refusal ? [{ type: 'refusal', refusal: msg.refusal }] : [{ type: 'output_text', text: said, annotations: [] }]
    output.push({ id: itemId('msg'), type: 'message', status: 'completed', role: 'assistant', content })
  }
  for (const call of msg.tool_calls ?? []) {
    output.push({ id: itemId('fc'), type: 'function_call', status: 'completed', call_id: call.id, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' })
  }
  const { status, incomplete_details } = statusOf(choice.finish_reason)
  return responseObject(ctx, { status, incomplete_details, model: answer.model, output, usage: responsesUsage(answer.usage) })
}
