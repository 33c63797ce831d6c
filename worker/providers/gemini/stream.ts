import type { SseEvent } from '../../../shared/contract/sse'
import { ConvertedStream } from '../openai/chunk'
import { candidateDelta, fromGeminiUsage, geminiFinish } from './response'

export class GeminiStream extends ConvertedStream {
  private started = false
  private tools = 0

  onEvent(event: SseEvent): string[] {
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    const err = Array.isArray(data) ? data[0]?.error : data?.error
    if (err && typeof err === 'object') {
      // Gemini reports a failure after the 200 as an `{error:{code,message,status}}` event.
      this.failure = { message: String(err.message ?? 'upstream stream error'), type: err.status, code: err.code != null ? String(err.code) : undefined }
      return []
    }
    if (data.modelVersion) this.model = data.modelVersion
    if (data.usageMetadata) this.captured = fromGeminiUsage(data.usageMetadata)
    const out: string[] = []
    if (!this.started) {
      this.started = true
      out.push(this.chunk({ role: 'assistant', content: '' }))
    }
    const candidate = data.candidates?.[0]
    if (!candidate) return out
    const { content, reasoning, toolCalls } = candidateDelta(candidate.content?.parts, this.tools)
    this.tools += toolCalls.length
    this.content += content + reasoning + toolCalls.map((t) => t.function.name + t.function.arguments).join('')
    if (reasoning) out.push(this.chunk({ reasoning_content: reasoning }))
    if (content) out.push(this.chunk({ content }))
    if (toolCalls.length) out.push(this.chunk({ tool_calls: toolCalls }))
    const finish = geminiFinish(candidate.finishReason, this.tools > 0)
    if (finish) out.push(this.chunk({}, finish))
    return out
  }
}
