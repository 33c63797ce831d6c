/**
 * Internal chat stream → OpenAI Responses stream events with a monotonic sequence_number:
 * response.created → response.in_progress; per output item output_item.added, then for a message
 * content_part.added → output_text.delta… → output_text.done → content_part.done, for a function
 * call function_call_arguments.delta… → .done, for reasoning reasoning_summary_part.added →
 * reasoning_summary_text.delta… → .done → reasoning_summary_part.done; then output_item.done; at
 * the end response.completed (or response.incomplete) with usage. A relay error becomes `error`
 * then response.failed. Events passed through from an OpenAI channel (`{native: event}`) are
 * written as they came.
 */
import { eventFrame, type InboundStreamEncoder } from '../types'
import { itemId, responseObject, responsesUsage, statusOf, type ResponseContext } from './response'

type Item = Record<string, any> & { type: 'message' | 'function_call' | 'reasoning' }

export class ResponsesStreamEncoder implements InboundStreamEncoder {
  private seq = 0
  private started = false
  /** The events come natively from an OpenAI channel (they carry their own sequence numbers). */
  private native = false
  private finished = false
  private model = ''
  private readonly output: Item[] = []
  private open: Item | undefined
  /** chat tool_call index → output index of its function_call item. */
  private readonly calls = new Map<number, number>()
  private finish: unknown = null
  private usage: Record<string, any> | undefined

  constructor(
    private readonly ctx: ResponseContext,
    /** Called once with the final response (to store it). */
    private readonly onComplete?: (response: Record<string, any>) => void
  ) {}

  private ev(type: string, fields: Record<string, unknown>): string {
    return eventFrame(type, { type, sequence_number: this.seq++, ...fields })
  }

  onChunk(chunk: Record<string, any>): string[] {
    if (this.finished) return []
    const out: string[] = []
    if (chunk.error) {
      this.finished = true
      const e = chunk.error as Record<string, unknown>
      out.push(this.ev('error', { code: e.code ?? e.type ?? 'upstream_error', message: String(e.message ?? 'upstream stream failed'), param: null }))
      const failed = responseObject(this.ctx, { status: 'failed', model: this.model, output: this.output })
      out.push(this.ev('response.failed', { response: { ...failed, error: { code: 'server_error', message: String(e.message ?? '') } } }))
      return out
    }
    // Pass-through from an OpenAI channel (native.ts): the channel's own events, unchanged.
    if (chunk.native_usage) return []
    if (chunk.native) {
      this.native = true
      const ev = chunk.native as Record<string, any>
      if ((ev.type === 'response.completed' || ev.type === 'response.incomplete') && ev.response) this.onComplete?.(ev.response)
      return typeof ev.type === 'string' ? [eventFrame(ev.type, ev)] : []
    }
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model
    if (!this.started) this.start(out)
    if (chunk.usage) this.usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (!choice) return out
    const delta = choice.delta ?? {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning) {
      const item = this.ensure(out, 'reasoning')
      item.text += reasoning
      out.push(this.ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index: item.index, summary_index: 0, delta: reasoning }))
    }
    if (typeof delta.content === 'string' && delta.content) {
      const item = this.ensure(out, 'message')
      item.text += delta.content
      out.push(this.ev('response.output_text.delta', { item_id: item.id, output_index: item.index, content_index: 0, delta: delta.content, logprobs: [] }))
    }
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const n = Number.isInteger(tc.index) ? tc.index : 0
      if (!this.calls.has(n)) {
        this.close(out)
        const item: Item = {
          type: 'function_call',
          id: itemId('fc'),
          index: this.output.length,
          call_id: tc.id || `call_${crypto.randomUUID().replace(/-/g, '')}`,
          name: tc.function?.name ?? '',
          text: '',
        }
        this.output.push(item)
        this.calls.set(n, item.index)
        this.open = item
        out.push(this.ev('response.output_item.added', { output_index: item.index, item: this.view(item, 'in_progress') }))
      }
      const args = tc.function?.arguments
      if (typeof args === 'string' && args) {
        const item = this.output[this.calls.get(n)!]!
        item.text += args
        out.push(this.ev('response.function_call_arguments.delta', { item_id: item.id, output_index: item.index, delta: args }))
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
    if (!this.started) this.start(out)
    this.close(out)
    const { status, incomplete_details } = statusOf(this.finish)
    const response = responseObject(this.ctx, {
      status,
      incomplete_details,
      model: this.model,
      output: this.output.map((i) => this.view(i, 'completed')),
      usage: responsesUsage(this.usage),
    })
    this.onComplete?.(response)
    out.push(this.ev(status === 'completed' ? 'response.completed' : 'response.incomplete', { response }))
    return out
  }

  private start(out: string[]) {
    this.started = true
    const response = responseObject(this.ctx, { status: 'in_progress', model: this.model, output: [] })
    out.push(this.ev('response.created', { response }))
    out.push(this.ev('response.in_progress', { response }))
  }

  /** The item as clients see it (in_progress while streaming, complete with its text at the end). */
  private view(item: Item, status: 'in_progress' | 'completed'): Record<string, unknown> {
    const done = status === 'completed'
    if (item.type === 'message') {
      return { id: item.id, type: 'message', status, role: 'assistant', content: done ? [{ type: 'output_text', text: item.text, annotations: [] }] : [] }
    }
    if (item.type === 'reasoning') return { id: item.id, type: 'reasoning', summary: done ? [{ type: 'summary_text', text: item.text }] : [] }
    return { id: item.id, type: 'function_call', status, call_id: item.call_id, name: item.name, arguments: done ? item.text : '' }
  }

  /** The open message or reasoning item, opening it (and closing another) when needed. */
  private ensure(out: string[], type: 'message' | 'reasoning'): Item {
    if (this.open?.type === type) return this.open
    this.close(out)
    const item: Item = { type, id: itemId(type === 'message' ? 'msg' : 'rs'), index: this.output.length, text: '' }
    this.output.push(item)
    this.open = item
    out.push(this.ev('response.output_item.added', { output_index: item.index, item: this.view(item, 'in_progress') }))
    const at = { item_id: item.id, output_index: item.index }
    if (type === 'message') out.push(this.ev('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }))
    else out.push(this.ev('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } }))
    return item
  }

  private close(out: string[]) {
    const item = this.open
    if (!item) return
    this.open = undefined
    const at = { item_id: item.id, output_index: item.index }
    if (item.type === 'message') {
      out.push(this.ev('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] }))
      out.push(this.ev('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text: item.text, annotations: [] } }))
    } else if (item.type === 'reasoning') {
      out.push(this.ev('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: item.text }))
      out.push(this.ev('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text: item.text } }))
    } else {
      out.push(this.ev('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.text }))
    }
    out.push(this.ev('response.output_item.done', { output_index: item.index, item: this.view(item, 'completed') }))
  }
}
