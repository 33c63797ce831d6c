/**
 * Internal chat stream → Anthropic Messages stream events, in Anthropic's order: message_start,
 * then per block content_block_start (the first followed by ping) → content_block_delta… →
 * content_block_stop, then message_delta (stop_reason, usage) and message_stop. A switch between
 * thinking, text and a tool call closes the open block and opens the next; the relay's error payload
 * becomes an `error` event and ends the stream. Events passed through from an Anthropic channel
 * (`{native: event}`) are written as they came.
 */
import { eventFrame, type InboundStreamEncoder } from '../types'
import { anthropicErrorBody, anthropicUsage, messageId, stopReason } from './response'

/** The `error` event that ends an Anthropic stream (the relay's error payload, or a cut native stream). */
export const anthropicStreamError = (type: unknown, message: string) => eventFrame('error', anthropicErrorBody(type === 'rate_limit_error' ? 429 : 529, message))

type Open = { kind: 'thinking' | 'text' } | { kind: 'tool'; call: number }

export class AnthropicStreamEncoder implements InboundStreamEncoder {
  private started = false
  /** The events come natively from an Anthropic channel (they already end with message_stop). */
  private native = false
  private pinged = false
  private finished = false
  private open: Open | undefined
  private blocks = 0
  /** chat tool_call index → Anthropic block index. */
  private readonly toolBlocks = new Map<number, number>()
  private finish: unknown = null
  private usage: Record<string, any> | undefined

  onChunk(chunk: Record<string, any>): string[] {
    if (this.finished) return []
    const out: string[] = []
    if (chunk.error) {
      this.finished = true
      const e = chunk.error as { message?: unknown; type?: unknown }
      return [anthropicStreamError(e.type, String(e.message ?? 'upstream stream failed'))]
    }
    // Pass-through from an Anthropic channel (native.ts): the channel's own events, unchanged.
    if (chunk.native_usage) return []
    if (chunk.native) {
      this.native = true
      return typeof chunk.native.type === 'string' ? [eventFrame(chunk.native.type, chunk.native)] : []
    }
    if (!this.started) out.push(this.start(chunk))
    if (chunk.usage) this.usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (!choice) return out
    const delta = choice.delta ?? {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning) {
      this.ensure(out, { kind: 'thinking' })
      out.push(this.delta({ type: 'thinking_delta', thinking: reasoning }))
    }
    if (typeof delta.content === 'string' && delta.content) {
      this.ensure(out, { kind: 'text' })
      out.push(this.delta({ type: 'text_delta', text: delta.content }))
    }
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const call = Number.isInteger(tc.index) ? tc.index : 0
      if (!this.toolBlocks.has(call)) {
        this.close(out)
        const index = this.blocks++
        this.toolBlocks.set(call, index)
        this.open = { kind: 'tool', call }
        const id = tc.id || `toolu_${crypto.randomUUID().replace(/-/g, '')}`
        out.push(eventFrame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: tc.function?.name ?? '', input: {} } }))
        this.ping(out)
      }
      const args = tc.function?.arguments
      if (typeof args === 'string' && args) {
        const index = this.toolBlocks.get(call)!
        out.push(eventFrame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } }))
      }
    }
    if (choice.finish_reason) this.finish = choice.finish_reason
    return out
  }

  end(): string[] {
    if (this.finished) return []
    this.finished = true
    if (this.native) return []
    const out: string[] = []
    if (!this.started) out.push(this.start({}))
    this.close(out)
    this.ping(out)
    out.push(eventFrame('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason(this.finish), stop_sequence: null }, usage: anthropicUsage(this.usage) }))
    out.push(eventFrame('message_stop', { type: 'message_stop' }))
    return out
  }

  private start(chunk: Record<string, any>): string {
    this.started = true
    const message = {
      id: messageId(chunk.id),
      type: 'message',
      role: 'assistant',
      model: chunk.model ?? '',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    }
    return eventFrame('message_start', { type: 'message_start', message })
  }

  private ping(out: string[]) {
    if (this.pinged) return
    this.pinged = true
    out.push(eventFrame('ping', { type: 'ping' }))
  }

  private delta(delta: Record<string, unknown>): string {
    return eventFrame('content_block_delta', { type: 'content_block_delta', index: this.blocks - 1, delta })
  }

  /** Opens a thinking or text block unless one of that kind is already open. */
  private ensure(out: string[], want: { kind: 'thinking' | 'text' }) {
    if (this.open?.kind === want.kind) return
    this.close(out)
    this.open = want
    const block = want.kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' }
    out.push(eventFrame('content_block_start', { type: 'content_block_start', index: this.blocks++, content_block: block }))
    this.ping(out)
  }

  private close(out: string[]) {
    if (!this.open) return
    const index = this.open.kind === 'tool' ? this.toolBlocks.get(this.open.call)! : this.blocks - 1
    out.push(eventFrame('content_block_stop', { type: 'content_block_stop', index }))
    this.open = undefined
  }
}
