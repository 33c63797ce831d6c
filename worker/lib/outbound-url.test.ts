/**
 * Outbound URLs an administrator may set: metadata and link-local addresses never, private
 * networks only when the operator allows them, no query/fragment/credentials; loopback stays
 * allowed for the local trial. A channel pointing at the metadata service is refused on save.
 */
import { describe, expect, it } from 'vitest'
import { setupRoot } from '../test/client'
import { outboundUrlProblem } from './outbound-url'

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

  it('a channel cannot be saved pointing at the metadata service', async () => {
    const root = await setupRoot()
    const res = await root.post('/api/channel/', { type: 1, name: 'ssrf', key: 'sk-x', models: 'gpt-4o', group: 'default', base_url: 'http://169.254.169.254' })
    expect(res.status).toBe(400)
    expect(res.body.data.fields.base_url).toMatch(/link-local/)
    const remote = await root.get('/api/prices/remote?url=http://10.0.0.8/prices.json')
    expect(remote.status).toBe(400)
  })
})
