/**
 * Outbound URLs an administrator may set: metadata, unspecified and link-local addresses never,
 * private networks only when the operator allows them, no query/fragment/credentials; loopback
 * stays allowed for the local trial. A channel pointing at the metadata service is refused on save.
 * URLs a user supplies (task hooks): https to public hosts only, in whatever notation, whatever
 * the operator allows.
 */
import { describe, expect, it } from 'vitest'
import { setupRoot } from '../test/client'
import { outboundUrlProblem, proxyUrlProblem, userUrlProblem } from './outbound-url'

describe('outbound URLs', () => {
  it('refuses link-local, metadata, private (unless allowed), odd schemes, queries and credentials', () => {
    const refused = [
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/',
      'http://metadata.google.internal/computeMetadata/v1',
      'http://10.1.2.3:8080',
      'http://172.20.0.5',
      'http://192.168.1.10',
      'http://[fd00::5]/',
      'http://[::ffff:10.0.0.1]/',
      'http://2852039166/', // 169.254.169.254 as one number
      'ftp://example.com',
      'https://api.example.com/v1?token=x',
      'https://api.example.com/#x',
      'https://user:pass@api.example.com',
      'not a url',
    ]
    for (const url of refused) expect(outboundUrlProblem(url, false), url).toBeDefined()
    for (const url of ['https://api.openai.com', 'http://127.0.0.1:3999', 'http://localhost:3999/v1', 'https://upstream.test']) {
      expect(outboundUrlProblem(url, false), url).toBeUndefined()
    }
    expect(outboundUrlProblem('http://192.168.1.10:8000', true)).toBeUndefined()
    expect(outboundUrlProblem('http://169.254.169.254/', true)).toBeDefined()
  })

  it("the administrators' guard sees every notation of unspecified, link-local, metadata and private hosts", async () => {
    const refused = [
      'http://0.0.0.0:3999',
      'http://0:3999', // 0.0.0.0 as one number
      'http://[::]:3999',
      'http://[::ffff:0.0.0.0]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/', // metadata through NAT64
      'http://[2002:a9fe:a9fe::1]/', // metadata inside 6to4
      'http://169.254.169.254./latest', // trailing dot
      'http://0xa9fea9fe/', // hex
      'http://0251.0376.0251.0376/', // octal
      'http://metadata.google.internal./computeMetadata/v1',
      'http://METADATA.google.internal../',
      'http://[fe80::1]/',
      'http://[febf::1]/',
      'http://10.1/', // 10.0.0.1
      'http://0x0a000001/',
      'http://[::ffff:192.168.0.1]/',
      'http://[::ffff:0:c0a8:1]/', // translated form
      'http://100.64.0.1/', // carrier-grade NAT
      'http://[fc00::1]/',
    ]
    for (const url of refused) expect(outboundUrlProblem(url, false), url).toBeDefined()
    // Loopback in any notation stays allowed, as before (the offline trial).
    for (const url of ['http://127.1:3999', 'http://[::1]:3999', 'http://[::ffff:127.0.0.1]:3999', 'http://localhost.:3999']) {
      expect(outboundUrlProblem(url, false), url).toBeUndefined()
    }
    expect(outboundUrlProblem('http://[::ffff:10.0.0.1]/', true)).toBeUndefined()
    expect(outboundUrlProblem('http://[::]/', true)).toBeDefined()
  })

  it("the users' guard refuses every local, private and reserved notation, whatever the operator allows", async () => {
    const refused: [string, RegExp][] = [
      ['http://upstream.example.com/hook', /https/],
      ['https://127.0.0.1:2019/stop', /loopback/],
      ['https://127.1/', /loopback/],
      ['https://2130706433/', /loopback/],
      ['https://0x7f000001/', /loopback/],
      ['https://0177.0.0.1/', /loopback/],
      ['https://0x7f.1/', /loopback/],
      ['https://127.0.0.1./', /loopback/],
      ['https://\uff11\uff12\uff17.0.0.1/', /loopback/], // full-width digits
      ['https://[::1]/', /loopback/],
      ['https://[::ffff:127.0.0.1]/', /loopback/],
      ['https://[0:0:0:0:0:ffff:7f00:1]/', /loopback/],
      ['https://[::127.0.0.1]/', /loopback/], // IPv4-compatible
      ['https://0.0.0.0/', /unspecified/],
      ['https://0/', /unspecified/],
      ['https://[::]/', /unspecified/],
      ['https://10.0.0.5/', /private/],
      ['https://172.16.0.1/', /private/],
      ['https://192.168.1.1/', /private/],
      ['https://100.64.0.1/', /private/], // carrier-grade NAT
      ['https://[fd00::1]/', /private/],
      ['https://[::ffff:10.0.0.5]/', /private/],
      ['https://[64:ff9b::a00:5]/', /private/], // NAT64
      ['https://169.254.169.254/latest', /link-local/],
      ['https://[fe80::1]/', /link-local/],
      ['https://[2002:a9fe:a9fe::]/', /link-local/], // 6to4
      ['https://224.0.0.1/', /reserved/],
      ['https://255.255.255.255/', /reserved/],
      ['https://198.18.0.1/', /reserved/],
      ['https://[ff02::1]/', /reserved/],
      ['https://[2001:db8::1]/', /reserved/],
      ['https://localhost/', /local name/],
      ['https://localhost./', /local name/],
      ['https://LOCALHOST../', /local name/],
      ['https://loc%61lhost/', /local name/],
      ['https://foo.localhost/', /local name/],
      ['https://printer.local/', /local name/],
      ['https://db.internal/', /local name/],
      ['https://router.home.arpa/', /local name/],
      ['https://metadata.google.internal./', /metadata/],
      ['https://metadata/', /metadata/],
      ['https://intranet/', /full domain name/],
      ['https://u:p@hooks.example.com/', /credentials/],
      ['not a url', /valid URL/],
    ]
    for (const [url, why] of refused) expect(userUrlProblem(url), url).toMatch(why)
    for (const url of [
      'https://hooks.example.com/cb?job=7',
      'https://8.8.8.8/hook',
      'https://[2606:4700::1111]/hook',
      'https://hooks.example.com./cb',
      'https://example.com:8443/x',
    ]) {
      expect(userUrlProblem(url), url).toBeUndefined()
    }
  })

  it('a channel cannot be saved pointing at the metadata service', async () => {
    const root = await setupRoot()
    const res = await root.post('/api/channel/', { type: 1, name: 'ssrf', key: 'sk-x', models: 'gpt-4o', group: 'default', base_url: 'http://169.254.169.254' })
    expect(res.status).toBe(400)
    expect(res.body.data.fields.base_url).toMatch(/link-local/)
    const remote = await root.get('/api/prices/remote?url=http://10.0.0.8/prices.json')
    expect(remote.status).toBe(400)
  })

  it('a channel proxy follows the base URL host rules, with credentials and socks5 allowed', async () => {
    expect(proxyUrlProblem('socks5://user:pa%20ss@proxy.example.com:1080', false)).toBeUndefined()
    expect(proxyUrlProblem('http://127.0.0.1:3128', false)).toBeUndefined()
    expect(proxyUrlProblem('http://169.254.169.254:80', true)).toMatch(/link-local/)
    expect(proxyUrlProblem('socks5://10.0.0.2:1080', false)).toMatch(/private network/)
    expect(proxyUrlProblem('socks5://10.0.0.2:1080', true)).toBeUndefined()
    expect(proxyUrlProblem('ftp://proxy.example.com:21', true)).toMatch(/http, https or socks5/)
    const root = await setupRoot()
    const res = await root.post('/api/channel/', { type: 1, name: 'px', key: 'sk-x', models: 'gpt-4o', group: 'default', proxy: 'http://169.254.169.254:80' })
    expect(res.status).toBe(400)
    expect(res.body.data.fields.proxy).toMatch(/link-local/)
  })
})
