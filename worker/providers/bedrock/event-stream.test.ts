/** AWS event-stream framing: CRC-32 check value, frames split anywhere, corrupt and truncated frames, SSE re-emission. */
import { describe, expect, it } from 'vitest'
import { SPLITS } from '../../test/stream-harness'
import { crc32, EventStreamDecoder, eventStreamToSse } from './event-stream'
import { frameResponse, fromBase64 } from '../../test/bedrock-frames'
import toolsB64 from './__fixtures__/converse-stream-tools.b64?raw'
import throttledB64 from './__fixtures__/converse-stream-throttled.b64?raw'

describe('crc32', () => {
  it('matches the CRC-32/ISO-HDLC check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
  })
})

describe('EventStreamDecoder', () => {
  it.each(SPLITS)('decodes every frame with its headers (chunks of %s bytes)', (every) => {
    const bytes = fromBase64(toolsB64)
    const decoder = new EventStreamDecoder()
    const messages = []
    const step = Number.isFinite(every) ? every : bytes.length
    for (let i = 0; i < bytes.length; i += step) messages.push(...decoder.push(bytes.slice(i, i + step)))
    expect(decoder.pending).toBe(0)
    expect(messages.map((m) => m.headers[':event-type'])).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ])
    expect(messages[0]!.headers[':message-type']).toBe('event')
    expect(JSON.parse(new TextDecoder().decode(messages[1]!.payload)).delta.text).toBe('Checking 東京')
  })

  it('rejects a frame whose message CRC does not match', () => {
    const bytes = fromBase64(toolsB64)
    bytes[20] = bytes[20]! ^ 0xff
    expect(() => new EventStreamDecoder().push(bytes)).toThrow(/CRC mismatch/)
  })

  it('rejects a corrupt prelude', () => {
    const bytes = fromBase64(toolsB64)
    bytes[2] = bytes[2]! ^ 0x01
    expect(() => new EventStreamDecoder().push(bytes)).toThrow(/prelude CRC/)
  })
})

describe('eventStreamToSse', () => {
  it.each(SPLITS)('re-emits events and exceptions as SSE (chunks of %s bytes)', async (every) => {
    const text = await eventStreamToSse(frameResponse(fromBase64(throttledB64), every)).text()
    expect(text).toBe(
      'event: messageStart\ndata: {"role":"assistant","p":"abc"}\n\n' +
        'event: contentBlockDelta\ndata: {"contentBlockIndex":0,"delta":{"text":"Partial"},"p":"abcd"}\n\n' +
        'event: exception\ndata: {"type":"throttlingException","message":"Too many tokens, please wait before trying again."}\n\n'
    )
  })

  it('reports a stream that ends inside a frame', async () => {
    const bytes = fromBase64(throttledB64)
    const res = eventStreamToSse(frameResponse(bytes.slice(0, bytes.length - 5)))
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(await res.text()).toContain('event: exception\ndata: {"type":"eventStreamError","message":"event-stream ended inside a frame"}')
  })
})
