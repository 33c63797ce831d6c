/**
 * Server-sent events decoder for the playground's streamed answers: text chunks go in (split
 * anywhere, even inside a line or between '\r' and '\n'), the data of each complete event comes
 * out. Follows the EventSource rules that matter here: lines end with LF, CR or CRLF; a blank
 * line ends an event; `data:` lines of one event are joined with '\n'; comments (':') and other
 * fields are skipped; a single space after the colon is dropped.
 */
export interface SseParser {
  /** Feeds decoded text; calls `onData` for every event completed by it. */
  push(text: string): void
  /** The stream ended: a last event without its blank line still counts. */
  end(): void
}

export function createSseParser(onData: (data: string) => void): SseParser {
  let buffer = ''
  let data: string[] = []

  const dispatch = () => {
    if (data.length) onData(data.join('\n'))
    data = []
  }

  const line = (text: string) => {
    if (text === '') return dispatch()
    if (text.startsWith(':')) return
    const colon = text.indexOf(':')
    const field = colon < 0 ? text : text.slice(0, colon)
    let value = colon < 0 ? '' : text.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') data.push(value)
  }

  const drain = (final: boolean) => {
    let start = 0
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i]
      if (ch !== '\n' && ch !== '\r') continue
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (ch === '\r' && i === buffer.length - 1 && !final) break
      line(buffer.slice(start, i))
      if (ch === '\r' && buffer[i + 1] === '\n') i++
      start = i + 1
    }
    buffer = buffer.slice(start)
  }

  return {
    push(text) {
      buffer += text
      drain(false)
    },
    end() {
      drain(true)
      if (buffer) line(buffer)
      buffer = ''
      dispatch()
    },
  }
}
