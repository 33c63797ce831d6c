/**
 * Anthropic Messages stream → OpenAI chat.completion.chunk stream. State carried across events:
 * message id/model, the tool-call index of each content block, usage (input at message_start,
 * output at message_delta) and any in-stream error event.
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import { ConvertedStream } from '../openai/chunk'
import { finishReason, fromAnthropicUsage, type AnthropicUsage } from './response'

export class AnthropicStream extends ConvertedStream {
  private readonly toolIndex = new Map<number, number>()
  private rawUsage: AnthropicUsage = {}
  private sawUsage = false

  onEvent(event: SseEvent): string[] {
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    switch (data.type ?? event.event) {
      case 'message_start': {
        const msg = data.message ?? {}
        if (msg.id) this.id = msg.id
        if (msg.model) this.model = msg.model
        this.mergeUsage(msg.usage)
        return [this.chunk({ role: 'assistant', content: '' })]
      }
      case 'content_block_start': {
        const block = data.content_block ?? {}
        if (block.type === 'tool_use') {
          const index = this.toolIndex.size
          this.toolIndex.set(data.index, index)
          this.content += block.name ?? ''
          return [this.chunk({ tool_calls: [{ index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] })]
        }
        if (block.type === 'text' && block.text) {
          this.content += block.text
          return [this.chunk({ content: block.text })]
        }
        return []
      }
      case 'content_block_delta': {
        const d = data.delta ?? {}
        if (d.type === 'text_delta') {
          this.content += d.text ?? ''
          return [this.chunk({ content: d.text ?? '' })]
        }
        if (d.type === 'thinking_delta') {
          this.content += d.thinking ?? ''
          return [this.chunk({ reasoning_content: d.thinking ?? '' })]
        }
        if (d.type === 'input_json_delta') {
          this.content += d.partial_json ?? ''
          const index = this.toolIndex.get(data.index) ?? 0
          return [this.chunk({ tool_calls: [{ index, function: { arguments: d.partial_json ?? '' } }] })]
        }
        return []
      }
      case 'message_delta': {
        this.mergeUsage(data.usage)
        const reason = finishReason(data.delta?.stop_reason)
        return reason ? [this.chunk({}, reason)] : []
      }
      case 'error':
        this.failure = {
          message: String(data.error?.message ?? 'upstream stream error'),
          type: data.error?.type,
        }
        return []
      default:
        return []
    }
  }

  private mergeUsage(u: AnthropicUsage | undefined) {
    if (!u) return
    this.sawUsage = true
    for (const [k, v] of Object.entries(u)) if (typeof v === 'number') (this.rawUsage as Record<string, number>)[k] = v
    if (u.cache_creation && typeof u.cache_creation === 'object') this.rawUsage.cache_creation = { ...this.rawUsage.cache_creation, ...u.cache_creation }
  }

  usage(): Usage | undefined {
    return this.sawUsage ? fromAnthropicUsage(this.rawUsage) : undefined
  }
}
