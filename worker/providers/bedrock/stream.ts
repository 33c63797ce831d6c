import type { SseEvent } from '../../../shared/contract/sse'
import { ConvertedStream } from '../openai/chunk'
import { finishReason, fromConverseUsage } from './response'

export class BedrockStream extends ConvertedStream {
  private readonly toolIndex = new Map<number, number>()

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
}
