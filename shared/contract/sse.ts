/**
 * Server-sent events: one incremental decoder used by every adapter and the console playground (bytes → events, safe at any
 * chunk boundary, CRLF/LF/CR line endings, multi-line data, comments ignored) and the encoder
 * for what the gateway writes to clients.
 */

export interface SseEvent {
  event?: string
  data: string
  id?: string
}

export class SseDecoder {
  private readonly text = new TextDecoder()
  private buffer = ''
  private dataLines: string[] = []
  private eventName: string | undefined
  private lastId: string | undefined
  private pendingCR = false

  /** Feed raw bytes (or a string); returns the events completed by this chunk. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let str = typeof chunk === 'string' ? chunk : this.text.decode(chunk, { stream: true })
    if (this.pendingCR && str.startsWith('\n')) str = str.slice(1)
    this.pendingCR = false
    this.buffer += str
    return this.drain(false)
  }

  /** Flush at end of stream: a last event without its blank line is still delivered. */
  end(): SseEvent[] {
    this.buffer += this.text.decode()
    const events = this.drain(true)
    if (this.buffer.length > 0) this.line(this.buffer, events)
    this.buffer = ''
    this.dispatch(events)
    return events
  }

  private drain(final: boolean): SseEvent[] {
    const events: SseEvent[] = []
    let start = 0
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer.charCodeAt(i)
      if (ch !== 10 && ch !== 13) continue
      if (ch === 13 && i === this.buffer.length - 1 && !final) {
        // A CR at the end of a chunk may be followed by LF in the next one.
        this.pendingCR = true
      }
      this.line(this.buffer.slice(start, i), events)
      if (ch === 13 && this.buffer.charCodeAt(i + 1) === 10) i++
      start = i + 1
    }
    this.buffer = this.buffer.slice(start)
    return events
  }

  private line(line: string, events: SseEvent[]) {
    if (line === '') return this.dispatch(events)
    if (line.charCodeAt(0) === 58) return // ':' comment
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    if (field === 'data') this.dataLines.push(value)
    else if (field === 'event') this.eventName = value
    else if (field === 'id') this.lastId = value
  }

  private dispatch(events: SseEvent[]) {
    if (this.dataLines.length === 0 && this.eventName === undefined) return
    const event: SseEvent = { data: this.dataLines.join('\n') }
    if (this.eventName !== undefined) event.event = this.eventName
    if (this.lastId !== undefined) event.id = this.lastId
    events.push(event)
    this.dataLines = []
    this.eventName = undefined
  }
}

const encoder = new TextEncoder()

/**
 * Encode `data:` events as one chunk (the events that arrived together leave together). A payload
 * must not contain raw newlines; JSON never does.
 */
export function encodeDataList(list: readonly string[]): Uint8Array {
  let text = ''
  for (const data of list) text += `data: ${data}\n\n`
  return encoder.encode(text)
}
