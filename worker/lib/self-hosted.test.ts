import { describe, expect, it } from 'vitest'
import wranglerToml from '../../wrangler.toml?raw'
import { isWorkerPath, pathOf, WORKER_PATH_PREFIXES, withKnownPeer } from './self-hosted'

describe('the Worker’s own paths', () => {
  it('are exactly wrangler.toml’s run_worker_first patterns', () => {
    const list = wranglerToml.match(/^run_worker_first\s*=\s*\[([^\]]*)\]/m)?.[1] ?? ''
    const patterns = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
    // A prefix that is itself an endpoint (/mcp) is listed bare and with /* on Cloudflare.
    expect([...new Set(patterns.map((p) => p.replace(/\/\*$/, '')))]).toEqual([...WORKER_PATH_PREFIXES])
  })

  it('match a prefix and what is below it, nothing that only starts with the same letters', () => {
    for (const p of [
      '/api',
      '/api/status',
      '/v1/chat/completions',
      '/v1beta/models/x:generateContent',
      '/mj-fast/mj/submit/imagine',
      '/suno/submit/music',
      '/dashboard/billing/usage',
    ])
      expect(isWorkerPath(p), p).toBe(true)
    for (const p of ['/', '/panel/log', '/assets/index-abc.js', '/apix', '/v10/x', '/tokenizer/o200k.json', '/setup']) expect(isWorkerPath(p), p).toBe(false)
  })

  it('reads the path of a URL without its query', () => {
    expect(pathOf('http://127.0.0.1:8787/v1/models?x=1')).toBe('/v1/models')
    expect(pathOf('https://gw.example/panel/log')).toBe('/panel/log')
    expect(pathOf('http://host')).toBe('/')
  })
})

describe('the client address on the self-hosted socket', () => {
  const req = (ip?: string) => new Request('http://gw.test/api/status', { headers: ip ? { 'cf-connecting-ip': ip } : {} })

  it('drops a CF-Connecting-IP the client sent when the socket is loopback-only', () => {
    expect(withKnownPeer(req('203.0.113.9'), '127.0.0.1').headers.get('cf-connecting-ip')).toBeNull()
    const plain = req()
    expect(withKnownPeer(plain, '127.0.0.1')).toBe(plain)
  })

  it('replaces it with the known value on a public interface', () => {
    expect(withKnownPeer(req('127.0.0.1'), 'unknown').headers.get('cf-connecting-ip')).toBe('unknown')
    expect(withKnownPeer(req(), 'unknown').headers.get('cf-connecting-ip')).toBe('unknown')
  })

  it('keeps the body of a request it copies', async () => {
    const post = new Request('http://gw.test/v1/chat/completions', { method: 'POST', body: '{"a":1}', headers: { 'cf-connecting-ip': '1.2.3.4' } })
    expect(await withKnownPeer(post, '127.0.0.1').text()).toBe('{"a":1}')
  })
})
