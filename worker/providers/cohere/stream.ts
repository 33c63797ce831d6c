/**
 * Cohere chat v2 stream (typed events: message-start, content-delta, tool-plan-delta,
 * tool-call-start/-delta, message-end with finish reason and usage) → OpenAI chunks.
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import type { RelayCall, StreamTransformer, UpstreamError } from '../types'
import { usageChunk, deltaChunk } from '../openai/chunk'
import { cohereFinish, fromCohereUsage } from './chat'

export class CohereStream implements StreamTransformer {
  private id = `chatcmpl-${crypto.randomUUID()}`
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
    const message = data.delta?.message ?? {}
    switch (data.type ?? event.event) {
      case 'message-start':
        if (data.id) this.id = data.id
        return [this.chunk({ role: 'assistant', content: '' })]
      case 'content-delta': {
        const text = String(message.content?.text ?? '')
        this.content += text
        return text ? [this.chunk({ content: text })] : []
      }
      case 'tool-plan-delta': {
        const plan = String(message.tool_plan ?? '')
        this.content += plan
        return plan ? [this.chunk({ reasoning_content: plan })] : []
      }
      case 'tool-call-start': {
        const call = message.tool_calls ?? {}
        const index = this.toolIndex.size
        this.toolIndex.set(data.index ?? index, index)
        const args = String(call.function?.arguments ?? '')
        this.content += String(call.function?.name ?? '') + args
        return [this.chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function?.name ?? '', arguments: args } }] })]
      }
      case 'tool-call-delta': {
        const args = String(message.tool_calls?.function?.arguments ?? '')
        this.content += args
        return args ? [this.chunk({ tool_calls: [{ index: this.toolIndex.get(data.index) ?? 0, function: { arguments: args } }] })] : []
      }
      case 'message-end': {
        this.captured = fromCohereUsage(data.delta?.usage) ?? this.captured
        if (data.delta?.finish_reason === 'ERROR') {
          this.failure = { message: String(data.delta?.error ?? 'Cohere stream error') }
          return []
        }
        const reason = cohereFinish(data.delta?.finish_reason)
        return reason ? [this.chunk({}, reason)] : []
      }
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
