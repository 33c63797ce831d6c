/**
 * Writes the ConverseStream fixtures as base64 AWS event-stream frames, encoded here with Node's
 * zlib.crc32 (independent of the gateway's decoder). Run: `node encode-frames.mjs` (Node 22+).
 */
import { crc32 } from 'node:zlib'
import { writeFileSync } from 'node:fs'

function header(name, value) {
  const n = Buffer.from(name)
  const v = Buffer.from(value)
  const len = Buffer.alloc(2)
  len.writeUInt16BE(v.length)
  return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), len, v])
}

function frame(headers, payload) {
  const h = Buffer.concat(Object.entries(headers).map(([k, v]) => header(k, v)))
  const p = Buffer.from(JSON.stringify(payload))
  const prelude = Buffer.alloc(8)
  prelude.writeUInt32BE(16 + h.length + p.length, 0)
  prelude.writeUInt32BE(h.length, 4)
  const preludeCrc = Buffer.alloc(4)
  preludeCrc.writeUInt32BE(crc32(prelude))
  const body = Buffer.concat([prelude, preludeCrc, h, p])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([body, crc])
}

const event = (type, payload) => frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, payload)
const exception = (type, message) => frame({ ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' }, { message })

const tools = [
  event('messageStart', { role: 'assistant', p: 'abcdefgh' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Checking 東京' }, p: 'abc' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' weather.' }, p: 'abcdefghijk' }),
  event('contentBlockStop', { contentBlockIndex: 0, p: 'ab' }),
  event('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_abc123', name: 'get_weather' } }, p: 'abcd' }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } }, p: 'a' }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Tokyo"}' } }, p: 'abcdef' }),
  event('contentBlockStop', { contentBlockIndex: 1, p: 'abc' }),
  event('messageStop', { stopReason: 'tool_use', p: 'abcdefg' }),
  event('metadata', { usage: { inputTokens: 412, outputTokens: 57, totalTokens: 869, cacheReadInputTokens: 400 }, metrics: { latencyMs: 1234 }, p: 'ab' }),
]
const throttled = [
  event('messageStart', { role: 'assistant', p: 'abc' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Partial' }, p: 'abcd' }),
  exception('throttlingException', 'Too many tokens, please wait before trying again.'),
]
writeFileSync(new URL('./converse-stream-tools.b64', import.meta.url), Buffer.concat(tools).toString('base64') + '\n')
writeFileSync(new URL('./converse-stream-throttled.b64', import.meta.url), Buffer.concat(throttled).toString('base64') + '\n')
