/**
 * Internal OpenAI answers → Gemini answers: chat completions to GenerateContentResponse (thought,
 * text and functionCall parts per candidate, finishReason, usageMetadata), embeddings lists to
 * embedContent / batchEmbedContents answers, and gateway errors to Google's error envelope.
 */
import type { ApiError } from '../../../lib/errors'

export function finishReason(finish: unknown): string {
  if (finish === 'length') return 'MAX_TOKENS'
  if (finish === 'content_filter') return 'SAFETY'
  return 'STOP'
}

/** chat usage → usageMetadata: candidates exclude the reasoning ("thoughts") tokens. */
export function usageMetadata(u: Record<string, any> | undefined) {
  const prompt = Number(u?.prompt_tokens ?? 0) || 0
  const completion = Number(u?.completion_tokens ?? 0) || 0
  const thoughts = Number(u?.completion_tokens_details?.reasoning_tokens ?? 0) || 0
  const cached = Number(u?.prompt_tokens_details?.cached_tokens ?? 0) || 0
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, completion - thoughts),
    totalTokenCount: prompt + completion,
    ...(cached ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  }
}

function parseArgs(args: unknown): Record<string, unknown> {
  if (typeof args !== 'string' || !args.trim()) return {}
  try {
    const v = JSON.parse(args)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v }
  } catch {
    return { raw: args }
  }
}

export const functionCallPart = (name: string, args: unknown) => ({ functionCall: { name, args: parseArgs(args) } })

export function toGenerateResponse(answer: Record<string, any>) {
  const candidates = (answer.choices ?? []).map((choice: any, i: number) => {
    const msg = choice.message ?? {}
    const parts: Record<string, unknown>[] = []
    const reasoning = msg.reasoning_content ?? msg.reasoning
    if (typeof reasoning === 'string' && reasoning) parts.push({ text: reasoning, thought: true })
    if (typeof msg.content === 'string' && msg.content) parts.push({ text: msg.content })
    for (const call of msg.tool_calls ?? []) parts.push(functionCallPart(call.function?.name ?? '', call.function?.arguments))
    return { content: { role: 'model', parts }, finishReason: finishReason(choice.finish_reason), index: choice.index ?? i }
  })
  return { candidates, usageMetadata: usageMetadata(answer.usage), modelVersion: answer.model, responseId: String(answer.id ?? '') }
}

export function toEmbedResponse(answer: Record<string, any>, batch: boolean) {
  const vectors = ((answer.data ?? []) as { embedding?: unknown; index?: number }[])
    .slice()
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map((d) => ({ values: Array.isArray(d.embedding) ? d.embedding : [] }))
  return batch ? { embeddings: vectors } : { embedding: vectors[0] ?? { values: [] } }
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

export const googleErrorBody = (status: number, message: string) => ({
  error: { code: status, message, status: STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') },
})

export function googleErrorResponse(err: ApiError, requestId?: string): Response {
  return Response.json(googleErrorBody(err.status, requestId ? `${err.message} (request id: ${requestId})` : err.message), { status: err.status })
}
