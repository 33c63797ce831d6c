import type { SseEvent } from '../../../shared/contract/sse'
import { ConvertedStream } from '../openai/chunk'
import { cohereFinish, fromCohereUsage } from './chat'

export class CohereStream extends ConvertedStream {
  private readonly toolIndex = new Map<number, number>()

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
}
