/**
 * Bedrock ConverseStream events (already turned into SSE by event-stream.ts: event name = the
 * event type, data = its JSON) → OpenAI chat.completion.chunk stream. Carries the tool-call index
 * of each content block, usage from the trailing `metadata` event and any exception frame.
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import type { RelayCall, StreamTransformer, UpstreamError } from '../types'
import { usageChunk, deltaChunk } from '../openai/chunk'
import { finishReason, fromConverseUsage } from './response'

export class BedrockStream implements StreamTransformer {
  private readonly id = `chatcmpl-${crypto.randomUUID()}`
  private readonly created = Math.floor(Date.now() / 1000)
  private readonly toolIndex = new Map<number, number>()
  private captured: Usage | undefined
  private content = ''
  private failure: UpstreamError | undefined

  constructor(private readonly call: RelayCall) {}

  private chunk(delta: Record<string, unknown>, finish: string | null = null): string {
    return deltaChunk({ id: this.id, created: this.created, model: this.call.model }, delta, finish)
  }

  onEvent(event: SseEvent): string[] {
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    switch (event.event) {
      case 'messageStart':
        return [this.chunk({ role: 'assistant', content: '' })]
      case 'contentBlockStart': {
        const tool = data.start?.toolUse
        if (!tool) return []
        const index = this.toolIndex.size
        this.toolIndex.set(data.contentBlockIndex, index)
        this.content += tool.name ?? ''
        return [this.chunk({ tool_calls: [{ index, id: tool.toolUseId, type: 'function', function: { name: tool.name, arguments: '' } }] })]
      }
      case 'contentBlockDelta': {
        const d = data.delta ?? {}
        if (typeof d.text === 'string') {
          this.content += d.text
          return [this.chunk({ content: d.text })]
        }
        if (typeof d.reasoningContent?.text === 'string') {
          this.content += d.reasoningContent.text
          return [this.chunk({ reasoning_content: d.reasoningContent.text })]
        }
        if (d.toolUse) {
          const args = String(d.toolUse.input ?? '')
          this.content += args
          return [this.chunk({ tool_calls: [{ index: this.toolIndex.get(data.contentBlockIndex) ?? 0, function: { arguments: args } }] })]
        }
        return []
      }
      case 'messageStop': {
        const reason = finishReason(data.stopReason)
        return reason ? [this.chunk({}, reason)] : []
      }
      case 'metadata':
        if (data.usage) this.captured = fromConverseUsage(data.usage)
        return []
      case 'exception':
        this.failure = { message: String(data.message || 'Bedrock stream error'), type: data.type }
        return []
      default:
        return []
    }
  }

  usage() {
    return this.captured
  }

  text() {
    return this.content
  }

  error() {
    return this.failure
  }

  usageChunk(usage: Usage): string {
    return usageChunk({ id: this.id, created: this.created, model: this.call.model }, usage)
  }
}
