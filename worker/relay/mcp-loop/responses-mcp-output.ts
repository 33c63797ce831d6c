/**
 * The output of a Responses request run by the MCP tool loop, built as the loop goes: an
 * `mcp_list_tools` item per server, then per model turn its own items (text, reasoning, the
 * client's function calls) with the MCP function calls shown as `mcp_call` items, whose output or
 * error arrives when the call ran. With `emit` (stream: true) every step is also written as
 * OpenAI's Responses events, with one monotonic sequence_number: response.created/in_progress;
 * output_item.added → response.mcp_list_tools.in_progress → .completed → output_item.done;
 * for a call output_item.added → response.mcp_call_arguments.delta/.done →
 * response.mcp_call.in_progress → response.mcp_call.completed or .failed → output_item.done; a
 * turn's message as content_part.added → output_text.delta → .done → content_part.done; at the end
 * response.completed (or .incomplete), or error + response.failed. A streamed turn's text opens its
 * message item at the first delta (textDelta) and sends each delta as it arrives; the turn's end
 * closes that item with the answer's whole message, before the turn's other items.
 */
import { eventFrame } from '../inbound/types'
import { responseObject, type ResponseContext, toResponse } from '../inbound/responses/response'
import type { LoopTurn, McpCallRecord } from './mcp-loop'
import type { McpToolSet } from './mcp-tools'

export const newItemId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, '')}`

type Item = Record<string, any>

export class McpOutput {
  readonly items: Item[] = []
  /** Where the latest turn's items begin in `items`. */
  lastTurnStart = 0
  private seq = 0
  private readonly calls = new Map<McpCallRecord, Item>()
  /** The message item a streamed turn is writing, and where. */
  private open?: { item: Item; at: { item_id: string; output_index: number }; text: string }

  constructor(
    private readonly ctx: ResponseContext,
    private readonly set: McpToolSet,
    private readonly emit?: (frame: string) => void
  ) {}

  private ev(type: string, fields: Record<string, unknown>) {
    this.emit?.(eventFrame(type, { type, sequence_number: this.seq++, ...fields }))
  }

  private add(item: Item): { item_id: string; output_index: number } {
    const output_index = this.items.push(item) - 1
    this.ev('response.output_item.added', { output_index, item })
    return { item_id: item.id, output_index }
  }

  start() {
    const response = responseObject(this.ctx, { status: 'in_progress', model: this.ctx.req.model, output: [] })
    this.ev('response.created', { response })
    this.ev('response.in_progress', { response })
  }

  /** The tools offered, one item per server. */
  lists() {
    for (const { label, tools } of this.set.lists) {
      const item = {
        id: newItemId('mcpl'),
        type: 'mcp_list_tools',
        server_label: label,
        tools: tools.map((t) => ({ name: t.tool.name, description: t.tool.description ?? null, input_schema: t.tool.inputSchema, annotations: t.tool.annotations ?? null })),
        error: null,
      }
      const at = this.add(item)
      this.ev('response.mcp_list_tools.in_progress', at)
      this.ev('response.mcp_list_tools.completed', at)
      this.ev('response.output_item.done', { output_index: at.output_index, item })
    }
  }

  /** A text delta of the turn being streamed: the first opens the turn's message item. */
  textDelta(delta: string) {
    if (!this.open) {
      this.lastTurnStart = this.items.length
      const item = { id: newItemId('msg'), type: 'message', status: 'in_progress', role: 'assistant', content: [] }
      const at = this.add(item)
      this.ev('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
      this.open = { item, at, text: '' }
    }
    this.open.text += delta
    this.ev('response.output_text.delta', { ...this.open.at, content_index: 0, delta, logprobs: [] })
  }

  /** A model turn answered; its MCP calls are about to run. */
  turn(turn: LoopTurn) {
    const open = this.open
    this.open = undefined
    if (!open) this.lastTurnStart = this.items.length
    for (const item of toResponse(this.ctx, turn.answer).output as Item[]) {
      const record = item.type === 'function_call' && this.set.offered.has(item.name) ? turn.calls.find((r) => r.callId === item.call_id) : undefined
      if (record) this.callStarted(record)
      else if (open && item.type === 'message') this.closeMessage(open, item)
      else if (item.type !== 'function_call' || !this.set.offered.has(item.name)) this.plain(item)
    }
  }

  /** The streamed message item, whole: the answer's message under the id its deltas carried. */
  private closeMessage(open: NonNullable<McpOutput['open']>, message: Item) {
    const item: Item = { ...message, id: open.item.id }
    this.items[open.at.output_index] = item
    const part = item.content[0] ?? { type: 'output_text', text: open.text, annotations: [] }
    this.ev('response.output_text.done', { ...open.at, content_index: 0, text: open.text, logprobs: [] })
    this.ev('response.content_part.done', { ...open.at, content_index: 0, part })
    this.ev('response.output_item.done', { output_index: open.at.output_index, item })
  }

  private callStarted(record: McpCallRecord) {
    const item = {
      id: newItemId('mcp'),
      type: 'mcp_call',
      status: 'in_progress',
      approval_request_id: null,
      server_label: record.label,
      name: record.name,
      arguments: record.arguments,
      output: null,
      error: null,
    }
    this.calls.set(record, item)
    const at = this.add({ ...item, arguments: '' })
    this.items[at.output_index] = item
    this.ev('response.mcp_call_arguments.delta', { ...at, delta: record.arguments })
    this.ev('response.mcp_call_arguments.done', { ...at, arguments: record.arguments })
    this.ev('response.mcp_call.in_progress', at)
  }

  /** A call ran (or was refused to run): its output or error. */
  call(record: McpCallRecord) {
    const item = this.calls.get(record)
    if (!item) return
    Object.assign(item, { output: record.output, error: record.error, status: record.error === null ? 'completed' : 'failed' })
    const output_index = this.items.indexOf(item)
    this.ev(record.error === null ? 'response.mcp_call.completed' : 'response.mcp_call.failed', { item_id: item.id, output_index })
    this.ev('response.output_item.done', { output_index, item })
  }

  /** A message, reasoning or client function call item of a turn, whole. */
  private plain(item: Item) {
    const at = this.add(item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item)
    this.items[at.output_index] = item
    if (item.type === 'message') {
      const text = item.content.map((p: Item) => p.text ?? p.refusal ?? '').join('')
      const part = { type: 'output_text', text: '', annotations: [] }
      this.ev('response.content_part.added', { ...at, content_index: 0, part })
      this.ev('response.output_text.delta', { ...at, content_index: 0, delta: text, logprobs: [] })
      this.ev('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] })
      this.ev('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } })
    } else if (item.type === 'function_call') {
      this.ev('response.function_call_arguments.delta', { ...at, delta: item.arguments })
      this.ev('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments })
    }
    this.ev('response.output_item.done', { output_index: at.output_index, item })
  }

  finish(response: Record<string, any>) {
    this.ev(response.status === 'completed' ? 'response.completed' : 'response.incomplete', { response })
  }

  fail(model: string, error: { code: string; message: string }) {
    this.ev('error', { code: error.code, message: error.message, param: null })
    const failed = responseObject(this.ctx, { status: 'failed', model, output: this.items })
    this.ev('response.failed', { response: { ...failed, error } })
  }
}
