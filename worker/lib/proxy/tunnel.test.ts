/** Proxy handshakes on a fake socket: HTTP CONNECT and SOCKS5 (with credentials), then TLS to the supplier's host. */
import { describe, expect, it } from 'vitest'
import { fakeNetwork } from '../../test/fake-socket'
import { proxyNetwork } from './proxy-fetch'
import { openThroughProxy, parseProxy } from './tunnel'

const supplier = { host: 'api.openai.com', port: 443, tls: true }
const OK_JSON = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}'

describe('HTTP CONNECT', () => {
  it('sends CONNECT with Basic credentials, then starts TLS checking the supplier host name', async () => {
    const net = fakeNetwork()
    const opening = openThroughProxy(parseProxy('http://us%40r:p%3Ass@proxy.example:3128'), supplier, net.connect, () => undefined)
    const far = net.far[0]!
    await far.waitFor(1)
    expect(far.written()).toBe(`CONNECT api.openai.com:443 HTTP/1.1\r\nhost: api.openai.com:443\r\nproxy-authorization: Basic ${btoa('us@r:p:ss')}\r\n\r\n`)
    await far.send('HTTP/1.1 200 Connection established\r\n\r\n')
    await opening
    expect(net.connects).toEqual([{ address: { hostname: 'proxy.example', port: 3128 }, options: { secureTransport: 'starttls', allowHalfOpen: false } }])
    expect(net.tls).toEqual([{ expectedServerHostname: 'api.openai.com' }])
  })

  it('turns a refused CONNECT into a proxy error naming the status', async () => {
    const net = fakeNetwork()
    const opening = openThroughProxy(parseProxy('http://proxy.example:3128'), supplier, net.connect, () => undefined)
    await net.far[0]!.send('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\n\r\n')
    await expect(opening).rejects.toThrow('proxy refused CONNECT: 407 Proxy Authentication Required')
    expect(net.far[0]!.closed).toBe(true)
    expect(net.tls).toEqual([])
  })

  it('sends a plain-http supplier call to the proxy in absolute form, without CONNECT', async () => {
    const net = fakeNetwork()
    const call = proxyNetwork('http://u:p@10.1.1.1:8080', net.connect).fetch('http://mock.local:3999/v1/chat/completions', { method: 'POST', body: '{}' })
    const far = net.far[0]!
    await far.waitFor(1)
    expect(far.written()).toMatch(/^POST http:\/\/mock\.local:3999\/v1\/chat\/completions HTTP\/1\.1\r\n/)
    expect(far.written()).toContain(`proxy-authorization: Basic ${btoa('u:p')}`)
    await far.send(OK_JSON)
    expect(await (await call).json()).toEqual({ ok: true })
    expect(net.connects[0]!.options.secureTransport).toBe('off')
    expect(net.tls).toEqual([])
  })

  it('refuses an https supplier through an https:// proxy (no TLS inside TLS) before connecting', async () => {
    const net = fakeNetwork()
    await expect(openThroughProxy(parseProxy('https://proxy.example:443'), supplier, net.connect, () => undefined)).rejects.toThrow('no TLS inside TLS')
    expect(net.connects).toEqual([])
  })
})

describe('SOCKS5', () => {
  it('greets with user/password auth, connects by domain name, then starts TLS to the supplier', async () => {
    const net = fakeNetwork()
    const call = proxyNetwork('socks5://alice:s3cret@socks.example:1080', net.connect).fetch('https://api.openai.com/v1/models')
    const far = net.far[0]!
    await far.waitFor(4)
    expect([...far.bytes()]).toEqual([5, 2, 0, 2])
    await far.send([5, 2])
    await far.waitFor(4 + 14)
    expect([...far.bytes().subarray(4)]).toEqual([1, 5, ...new TextEncoder().encode('alice'), 6, ...new TextEncoder().encode('s3cret')])
    await far.send([1, 0])
    const host = new TextEncoder().encode('api.openai.com')
    const connectLength = 5 + host.length + 2
    await far.waitFor(18 + connectLength)
    expect([...far.bytes().subarray(18)]).toEqual([5, 1, 0, 3, host.length, ...host, 1, 187])
    await far.send([5, 0, 0, 1, 127, 0, 0, 1, 0x1f, 0x90])
    await far.waitFor(18 + connectLength + 1)
    expect(net.tls).toEqual([{ expectedServerHostname: 'api.openai.com' }])
    expect(far.written().slice(18 + connectLength)).toMatch(/^GET \/v1\/models HTTP\/1\.1\r\nhost: api\.openai\.com\r\n/)
    await far.send(OK_JSON)
    expect(await (await call).json()).toEqual({ ok: true })
    expect(net.connects[0]!.address).toEqual({ hostname: 'socks.example', port: 1080 })
  })

  it('names the refusal: bad credentials, a refused target, or a proxy that wants credentials', async () => {
    const badAuth = fakeNetwork()
    const a = openThroughProxy(parseProxy('socks5://alice:wrong@socks.example:1080'), supplier, badAuth.connect, () => undefined)
    await badAuth.far[0]!.send([5, 2, 1, 1])
    await expect(a).rejects.toThrow('SOCKS5 proxy refused the user name or password')

    const refused = fakeNetwork()
    const b = openThroughProxy(parseProxy('socks5h://socks.example:1080'), { host: '10.0.0.9', port: 8443, tls: true }, refused.connect, () => undefined)
    const far = refused.far[0]!
    await far.send([5, 0])
    await far.waitFor(3 + 10)
    expect([...far.bytes().subarray(3)]).toEqual([5, 1, 0, 1, 10, 0, 0, 9, 0x20, 0xfb])
    await far.send([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
    await expect(b).rejects.toThrow('SOCKS5 proxy refused the connection to 10.0.0.9:8443: connection refused')

    const wantsAuth = fakeNetwork()
    const c = openThroughProxy(parseProxy('socks5://socks.example:1080'), supplier, wantsAuth.connect, () => undefined)
    await wantsAuth.far[0]!.send([5, 0xff])
    await expect(c).rejects.toThrow('it may need a user name and password')
  })
})

describe('proxyNetwork', () => {
  it('closes the socket when the call is aborted before the answer', async () => {
    const net = fakeNetwork()
    const abort = new AbortController()
    const call = proxyNetwork('http://proxy.example:3128', net.connect).fetch('https://api.openai.com/v1/models', { signal: abort.signal })
    await net.far[0]!.waitFor(1)
    abort.abort(new Error('timed out'))
    await expect(call).rejects.toThrow('timed out')
    expect(net.far[0]!.closed).toBe(true)
  })
})
