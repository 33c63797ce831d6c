import { describe, expect, it } from 'vitest'
import { SseDecoder, type SseEvent } from './sse'

const stream = [
  ': keep-alive comment',
  'event: message_start',
  'data: {"type":"message_start","text":"héllo 世界"}',
  '',
  'data: {"a":1}',
  'data: {"b":2}',
  '',
  'id: 7',
  'data: [DONE]',
  '',
  '',
].join('\n')

const expected: SseEvent[] = [{ event: 'message_start', data: '{"type":"message_start","text":"héllo 世界"}' }, { data: '{"a":1}\n{"b":2}' }, { data: '[DONE]', id: '7' }]

function decodeInPieces(bytes: Uint8Array, splits: number[]): SseEvent[] {
  const d = new SseDecoder()
  const out: SseEvent[] = []
  let prev = 0
  for (const s of [...splits, bytes.length]) {
    out.push(...d.push(bytes.slice(prev, s)))
    prev = s
  }
  out.push(...d.end())
  return out
}

describe('SseDecoder', () => {
  const bytes = new TextEncoder().encode(stream)

  it('decodes the whole stream at once', () => {
    expect(decodeInPieces(bytes, [])).toEqual(expected)
  })

  it('decodes identically at every single split point (including inside UTF-8 characters)', () => {
    for (let i = 1; i < bytes.length; i++) expect(decodeInPieces(bytes, [i])).toEqual(expected)
  })

  it('decodes identically when fed one byte at a time', () => {
    expect(
      decodeInPieces(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)
      )
    ).toEqual(expected)
  })

  it('handles CRLF and lone CR line endings, also split between chunks', () => {
    const crlf = new TextEncoder().encode(stream.replaceAll('\n', '\r\n'))
    for (let i = 1; i < crlf.length; i++) expect(decodeInPieces(crlf, [i])).toEqual(expected)
    const cr = new TextEncoder().encode(stream.replaceAll('\n', '\r'))
    expect(decodeInPieces(cr, [])).toEqual(expected)
  })

  it('delivers a final event that lacks the blank line', () => {
    const d = new SseDecoder()
    expect(d.push('data: {"x":1}')).toEqual([])
    expect(d.end()).toEqual([{ data: '{"x":1}' }])
  })

  it('handles large events split into many chunks', () => {
    const big = 'x'.repeat(200_000)
    const b = new TextEncoder().encode(`data: ${big}\n\n`)
    const splits = Array.from({ length: 50 }, (_, i) => (i + 1) * 4000)
    expect(decodeInPieces(b, splits)).toEqual([{ data: big }])
  })
})
