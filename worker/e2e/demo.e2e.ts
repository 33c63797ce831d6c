/**
 * `npm run demo` (scripts/demo.mjs) against the running e2e server and mock upstream: it seeds a
 * channel, the price and a key that answer the printed curl command and the printed SDK call, a
 * second run reuses the channel, and it refuses any address that is not on this machine.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import OpenAI from 'openai'
import { describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { isLoopbackUrl, runDemo, snippets } from '../../scripts/demo.mjs'
import { SHARED_ROOT, rootSession } from './support/api'

describe('npm run demo', () => {
  it('seeds a working channel, price and key and prints commands that answer', async () => {
    const root = await rootSession()
    const gateway = inject('gatewayUrl')
    const mock = inject('mockUrl')
    const lines: string[] = []
    const first = await runDemo({ gateway, mock, ...SHARED_ROOT, log: (line: string) => lines.push(line) })
    expect(first.mockUp).toBe(true)
    expect(first.key).toMatch(/^sk-\S{16,}$/)

    const { curl, sdk } = snippets(gateway, first.key) as { curl: string; sdk: string }
    const { stdout } = await promisify(execFile)('sh', ['-c', curl], { timeout: 30_000 })
    expect(JSON.parse(stdout).choices[0].message.content).toMatch(/\S/)
    expect(sdk).toContain(`baseURL: '${gateway}/v1'`)
    const client = new OpenAI({ baseURL: `${gateway}/v1`, apiKey: first.key })
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    expect(reply.choices[0]!.message.content).toMatch(/\S/)

    // A second run adds a key but no second channel.
    const second = await runDemo({ gateway, mock, ...SHARED_ROOT, log: (line: string) => lines.push(line) })
    expect(second.key).not.toBe(first.key)
    expect(lines.at(-1)).toContain('already points at')
    const channels = await root.ok<{ data: { name: string }[] }>('GET', `/api/channel/?name=${encodeURIComponent('Local mock (demo)')}`)
    expect(channels.data.filter((c) => c.name === 'Local mock (demo)')).toHaveLength(1)
  })

  it('refuses a gateway or mock that is not on this machine', async () => {
    expect(isLoopbackUrl('http://127.0.0.1:8787')).toBe(true)
    expect(isLoopbackUrl('http://localhost:8787')).toBe(true)
    expect(isLoopbackUrl('http://[::1]:8787')).toBe(true)
    expect(isLoopbackUrl('https://gateway.example.com')).toBe(false)
    expect(isLoopbackUrl('http://10.0.0.5:8787')).toBe(false)
    await expect(runDemo({ gateway: 'https://gateway.example.com', mock: inject('mockUrl'), ...SHARED_ROOT, log: () => {} })).rejects.toThrow('is not on this machine')
  })
})
