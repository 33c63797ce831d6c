/** HTTP/1.1 on a raw socket: the request head, and answers read as streams (content-length, chunked, until close). */
import { describe, expect, it } from 'vitest'
import { fakeNetwork } from '../../test/fake-socket'
import { ByteReader } from './byte-reader'
import { encodeRequest, readResponse } from './http1'

const latin1 = (b: Uint8Array) => new TextDecoder('latin1').decode(b)

/** A connection whose far end the test writes; `closed` counts the done() calls. */
function answer() {
  const net = fakeNetwork()
  const socket = net.connect({ hostname: 'h', port: 1 }, { allowHalfOpen: false })
  const far = net.far[0]!
  const state = { closed: 0 }
  const response = (method = 'POST') => readResponse(new ByteReader(socket.readable.getReader()), method, () => state.closed++)
  return { far, state, response }
}

describe('encodeRequest', () => {
  it('writes an origin-form head with host, framing and the body, dropping hop-by-hop headers', async () => {
    const req = new Request('https://api.example.com:8443/v1/chat?x=1', {
      method: 'POST',
      headers: { authorization: 'Bearer sk', connection: 'keep-alive', 'accept-encoding': 'br', 'content-type': 'application/json' },
      body: '{"a":1}',
    })
    const text = latin1(await encodeRequest(req))
    const [head, body] = text.split('\r\n\r\n')
    const lines = head!.split('\r\n')
    expect(lines[0]).toBe('POST /v1/chat?x=1 HTTP/1.1')
    expect(lines).toContain('host: api.example.com:8443')
    expect(lines).toContain('authorization: Bearer sk')
    expect(lines).toContain('content-length: 7')
    expect(lines).toContain('connection: close')
    expect(lines).toContain('accept-encoding: identity')
    expect(lines.filter((l) => /^(connection|accept-encoding):/.test(l))).toHaveLength(2)
    expect(body).toBe('{"a":1}')
  })

  it('writes the absolute form with the proxy credentials for a plain-http supplier', async () => {
    const text = latin1(await encodeRequest(new Request('http://10.0.0.5:3999/v1/models'), { absolute: true, extra: { 'proxy-authorization': 'Basic eDp5' } }))
    expect(text.startsWith('GET http://10.0.0.5:3999/v1/models HTTP/1.1\r\nhost: 10.0.0.5:3999\r\n')).toBe(true)
    expect(text).toContain('\r\nproxy-authorization: Basic eDp5\r\n')
    expect(text).not.toContain('content-length')
  })
})

describe('readResponse', () => {
  it('streams a content-length body: the first bytes are readable before the rest is sent', async () => {
    const { far, state, response } = answer()
    await far.send('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\nhello')
    const res = await response()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    const reader = res.body!.getReader()
    expect(latin1((await reader.read()).value!)).toBe('hello')
    expect(state.closed).toBe(0)
    await far.send('world')
    expect(latin1((await reader.read()).value!)).toBe('world')
    expect((await reader.read()).done).toBe(true)
    expect(state.closed).toBe(1)
  })

  it('decodes a chunked body (extensions, trailers, sizes split across reads) and passes each chunk on as it arrives', async () => {
    const { far, state, response } = answer()
    await far.send('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n')
    const res = await response()
    expect(res.headers.get('transfer-encoding')).toBeNull()
    const reader = res.body!.getReader()
    await far.send('d;ext=1\r\ndata: first\n\n\r\n')
    expect(latin1((await reader.read()).value!)).toBe('data: first\n\n')
    await far.send('0')
    await far.send('e\r\ndata: sec')
    expect(latin1((await reader.read()).value!)).toBe('data: sec')
    await far.send('ond\n\n\r\n0\r\nx-trailer: 1\r\n\r\n')
    expect(latin1((await reader.read()).value!)).toBe('ond\n\n')
    expect((await reader.read()).done).toBe(true)
    expect(state.closed).toBe(1)
  })

  it('reads until the close when the answer has no length', async () => {
    const { far, response } = answer()
    await far.send('HTTP/1.1 500 Internal Server Error\r\n\r\n{"error":')
    const res = await response()
    expect(res.status).toBe(500)
    expect(res.statusText).toBe('Internal Server Error')
    const text = res.text()
    await far.send('"x"}')
    await far.end()
    expect(await text).toBe('{"error":"x"}')
  })

  it('skips a 100 Continue and gives a 204 no body', async () => {
    const { far, state, response } = answer()
    await far.send('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n')
    const res = await response()
    expect(res.status).toBe(204)
    expect(res.headers.get('x-a')).toBe('1')
    expect(res.body).toBeNull()
    expect(state.closed).toBe(1)
  })

  it('decodes a gzip answer from a supplier that compresses anyway', async () => {
    const { far, response } = answer()
    const gz = new Uint8Array(await new Response(new Blob(['{"ok":true}']).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
    await far.send(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${gz.length}\r\n\r\n`)
    await far.send(gz)
    const res = await response()
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(await res.json()).toEqual({ ok: true })
  })

  it('fails the body when the connection closes before the content length, or a chunk size is malformed', async () => {
    const short = answer()
    await short.far.send('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc')
    await short.far.end()
    await expect((await short.response()).text()).rejects.toThrow('7 bytes before the end of the body')
    expect(short.state.closed).toBe(1)
    const bad = answer()
    await bad.far.send('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')
    await expect((await bad.response()).text()).rejects.toThrow('malformed chunk size')
  })

  it('refuses an answer that is not HTTP/1.1', async () => {
    const { far, response } = answer()
    await far.send('SSH-2.0-OpenSSH\r\n\r\n')
    await expect(response()).rejects.toThrow('supplier did not answer HTTP/1.1')
  })
})
