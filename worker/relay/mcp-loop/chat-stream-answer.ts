/**
 * A streamed model turn of the MCP tool loop read back into one chat completion: the relay's
 * OpenAI chat SSE (chat.completion.chunk events, `[DONE]`) is decoded as it arrives, every content
 * delta is handed on at once (`onText`), and the turn's message — content, refusal, reasoning, the
 * tool calls assembled from their indexed fragments — its finish_reason and its usage chunk come
 * back as the chat completion the loop reads. An `error` event (the upstream cut the stream) throws.
 */
import { SseDecoder } from '../../../shared/contract/sse'
import { ApiError } from '../../lib/errors'

type Json = Record<string, any>

interface ToolCallParts {
  id: string
  name: string
  arguments: string
}

export async function readChatStream(body: ReadableStream<Uint8Array> | null, onText: (delta: string) => void): Promise<Json> {
  const head: Json = { id: '', created: 0, model: '' }
  let content = ''
  let reasoning = ''
  let refusal = ''
  let finish: string | null = null
  let usage: Json | undefined
  const calls = new Map<number, ToolCallParts>()

  const chunk = (data: string) => {
    if (data === '[DONE]') return
    let ev: Json
    try {
      ev = JSON.parse(data)
    } catch {
      return
    }
    if (ev.error) throw new ApiError(502, `The model's stream failed: ${String(ev.error.message ?? 'upstream error').slice(0, 300)}`, { code: 'upstream_error' })
    for (const k of ['id', 'created', 'model'] as const) if (!head[k] && ev[k]) head[k] = ev[k]
    if (ev.usage) usage = ev.usage
    const choice = Array.isArray(ev.choices) ? (ev.choices.find((ch: Json) => (ch?.index ?? 0) === 0) ?? undefined) : undefined
    if (!choice) return
    const delta: Json = choice.delta ?? {}
    if (typeof delta.content === 'string' && delta.content) {
      content += delta.content
      onText(delta.content)
    }
    const thought = delta.reasoning_content ?? delta.reasoning
    if (typeof thought === 'string') reasoning += thought
    if (typeof delta.refusal === 'string') refusal += delta.refusal
    for (const [n, tc] of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []).entries()) {
      const at = typeof tc?.index === 'number' ? tc.index : n
      const call = calls.get(at) ?? { id: '', name: '', arguments: '' }
      calls.set(at, call)
      if (tc?.id) call.id = String(tc.id)
      if (typeof tc?.function?.name === 'string' && !call.name) call.name = tc.function.name
      if (typeof tc?.function?.arguments === 'string') call.arguments += tc.function.arguments
    }
    if (choice.finish_reason) finish = choice.finish_reason
  }

  const decoder = new SseDecoder()
  const reader = body?.getReader()
  try {
    for (;;) {
      const read = await reader?.read()
      if (!read || read.done) break
      for (const ev of decoder.push(read.value)) chunk(ev.data)
    }
    for (const ev of decoder.end()) chunk(ev.data)
  } finally {
    reader?.releaseLock()
  }

  const message: Json = { role: 'assistant', content: content || null }
  if (reasoning) message.reasoning_content = reasoning
  if (refusal) message.refusal = refusal
  if (calls.size) {
    message.tool_calls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([n, t]) => ({ id: t.id || `call_${n}`, type: 'function', function: { name: t.name, arguments: t.arguments } }))
  }
  return { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish ?? (calls.size ? 'tool_calls' : 'stop') }], ...(usage ? { usage } : {}) }
}
