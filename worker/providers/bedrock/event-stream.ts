/**
 * AWS event-stream binary framing (the body of Bedrock's ConverseStream): frames are
 * [total length u32][headers length u32][prelude CRC32][headers][payload][message CRC32], all
 * big-endian. The decoder is incremental (safe at any chunk boundary) and checks both CRCs;
 * `eventStreamToSse` re-emits each frame as one SSE event named after its `:event-type`.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32 (IEEE 802.3), as event-stream uses it. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

export type HeaderValue = string | number | boolean | bigint | Uint8Array

export interface EventMessage {
  headers: Record<string, HeaderValue>
  payload: Uint8Array
}

export class EventStreamError extends Error {}

const utf8 = new TextDecoder()

function readHeaders(bytes: Uint8Array): Record<string, HeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out: Record<string, HeaderValue> = {}
  let i = 0
  while (i < bytes.length) {
    const nameLen = bytes[i]!
    const name = utf8.decode(bytes.subarray(i + 1, i + 1 + nameLen))
    i += 1 + nameLen
    const type = bytes[i++]
    switch (type) {
      case 0:
        out[name] = true
        break
      case 1:
        out[name] = false
        break
      case 2:
        out[name] = view.getInt8(i)
        i += 1
        break
      case 3:
        out[name] = view.getInt16(i)
        i += 2
        break
      case 4:
        out[name] = view.getInt32(i)
        i += 4
        break
      case 5:
        out[name] = view.getBigInt64(i)
        i += 8
        break
      case 6:
      case 7: {
        const len = view.getUint16(i)
        const value = bytes.subarray(i + 2, i + 2 + len)
        out[name] = type === 7 ? utf8.decode(value) : value.slice()
        i += 2 + len
        break
      }
      case 8:
        out[name] = view.getBigInt64(i)
        i += 8
        break
      case 9:
        out[name] = bytes.slice(i, i + 16)
        i += 16
        break
      default:
        throw new EventStreamError(`unknown event-stream header type ${type}`)
    }
  }
  return out
}

export class EventStreamDecoder {
  private buffer = new Uint8Array(0)

  /** Feed bytes; returns the messages completed by them. Throws EventStreamError on a corrupt frame. */
  push(chunk: Uint8Array): EventMessage[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length)
    joined.set(this.buffer)
    joined.set(chunk, this.buffer.length)
    const messages: EventMessage[] = []
    let offset = 0
    while (joined.length - offset >= 12) {
      const view = new DataView(joined.buffer, joined.byteOffset + offset)
      const total = view.getUint32(0)
      const headersLen = view.getUint32(4)
      if (view.getUint32(8) !== crc32(joined, offset, offset + 8)) throw new EventStreamError('event-stream prelude CRC mismatch')
      if (total < 16 + headersLen || total > 16 * 1024 * 1024) throw new EventStreamError(`event-stream frame length ${total} is invalid`)
      if (joined.length - offset < total) break
      if (view.getUint32(total - 4) !== crc32(joined, offset, offset + total - 4)) throw new EventStreamError('event-stream message CRC mismatch')
      messages.push({
        headers: readHeaders(joined.subarray(offset + 12, offset + 12 + headersLen)),
        payload: joined.slice(offset + 12 + headersLen, offset + total - 4),
      })
      offset += total
    }
    this.buffer = joined.slice(offset)
    return messages
  }

  /** Bytes of an unfinished frame left when the stream ended. */
  get pending(): number {
    return this.buffer.length
  }
}

/** One frame as an SSE event: `event: <:event-type>` (or `exception`), `data: <payload JSON>`. */
export function messageToSse(m: EventMessage): string {
  const payload = utf8.decode(m.payload)
  if (m.headers[':message-type'] === 'exception' || m.headers[':message-type'] === 'error') {
    const type = String(m.headers[':exception-type'] ?? m.headers[':error-code'] ?? 'exception')
    let message = String(m.headers[':error-message'] ?? '')
    try {
      message = String(JSON.parse(payload).message ?? message)
    } catch {
      message ||= payload
    }
    return `event: exception\ndata: ${JSON.stringify({ type, message })}\n\n`
  }
  return `event: ${String(m.headers[':event-type'] ?? 'message')}\ndata: ${payload.replace(/\n/g, '')}\n\n`
}

export function eventStreamToSse(res: Response): Response {
  const decoder = new EventStreamDecoder()
  const encoder = new TextEncoder()
  const fail = (message: string) => encoder.encode(`event: exception\ndata: ${JSON.stringify({ type: 'eventStreamError', message })}\n\n`)
  let broken = false
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (broken) return
      try {
        for (const m of decoder.push(chunk)) controller.enqueue(encoder.encode(messageToSse(m)))
      } catch (err) {
        broken = true
        controller.enqueue(fail((err as Error).message))
      }
    },
    flush(controller) {
      if (!broken && decoder.pending) controller.enqueue(fail('event-stream ended inside a frame'))
    },
  })
  const headers = new Headers(res.headers)
  headers.set('content-type', 'text/event-stream')
  return new Response(res.body ? res.body.pipeThrough(transform) : '', { status: res.status, headers })
}
