/**
 * Internal chat stream → Gemini `alt=sse` stream: one `data:` GenerateContentResponse per chunk
 * with text (thought parts for reasoning); function calls are sent whole once their arguments are
 * complete; the last frame carries finishReason and usageMetadata. No [DONE]. A relay error
 * becomes a Google error frame. Frames passed through from a Gemini channel (`{native: frame}`)
 * are written as they came.
 */
import { dataFrame, type InboundStreamEncoder } from '../types'
import { finishReason, functionCallPart, googleErrorBody, usageMetadata } from './response'

/** The Google error frame that ends a Gemini stream (the relay's error payload, or a cut native stream). */
export const geminiStreamError = (type: unknown, message: string) => dataFrame(googleErrorBody(type === 'rate_limit_error' ? 429 : 503, message))

export class GeminiStreamEncoder implements InboundStreamEncoder {
  private finished = false
  /** The frames come natively from a Gemini channel (the last already carries finishReason). */
  private native = false
  private model = ''
  private id = ''
  private readonly calls = new Map<number, { name: string; args: string }>()
  private finish: unknown = null
  private usage: Record<string, any> | undefined

  private frame(parts: Record<string, unknown>[], last = false): string {
    const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 }
    if (last) candidate.finishReason = finishReason(this.finish)
    return dataFrame({
      candidates: [candidate],
      ...(last ? { usageMetadata: usageMetadata(this.usage) } : {}),
      modelVersion: this.model,
      responseId: this.id,
    })
  }

  onChunk(chunk: Record<string, any>): string[] {
    if (this.finished) return []
    if (chunk.error) {
      this.finished = true
      return [geminiStreamError(chunk.error.type, String(chunk.error.message ?? 'upstream stream failed'))]
    }
    // Pass-through from a Gemini channel (native.ts): the channel's own frames, unchanged.
    if (chunk.native_usage) return []
    if (chunk.native) {
      this.native = true
      return [dataFrame(chunk.native)]
    }
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model
    if (typeof chunk.id === 'string' && chunk.id) this.id = chunk.id
    if (chunk.usage) this.usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (!choice) return []
    const delta = choice.delta ?? {}
    const parts: Record<string, unknown>[] = []
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning) parts.push({ text: reasoning, thought: true })
    if (typeof delta.content === 'string' && delta.content) parts.push({ text: delta.content })
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const n = Number.isInteger(tc.index) ? tc.index : 0
      const call = this.calls.get(n) ?? { name: '', args: '' }
      if (tc.function?.name) call.name = tc.function.name
      if (typeof tc.function?.arguments === 'string') call.args += tc.function.arguments
      this.calls.set(n, call)
    }
    if (choice.finish_reason) this.finish = choice.finish_reason
    return parts.length ? [this.frame(parts)] : []
  }

  end(): string[] {
    if (this.finished) return []
    this.finished = true
    if (this.native) return []
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => functionCallPart(c.name, c.args))
    return [this.frame(calls, true)]
  }
}
