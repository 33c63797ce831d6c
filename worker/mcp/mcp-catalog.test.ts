/**
 * Prompts and resources through /mcp (mcp-catalog.ts) against the SDK's own servers: listed from
 * every server of the key's group under gateway names, fetched from the right server with its own
 * headers, a server without them adding nothing, the key's allowlist applied, a resource of a server
 * outside the group unreadable, and nothing charged.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { setupRoot } from '../test/client'
import { createToken, createUser, ledger } from '../test/factories'
import { CALC, gatewayClient, mockMcpServers } from '../test/mcp-mock'
import { gatewayResourceUri, parseGatewayResourceUri } from './mcp-catalog'

let restore: (() => void) | undefined
afterEach(() => restore?.())

const DOCS = {
  tools: [],
  prompts: [{ name: 'summarise', description: 'Summarise a topic', text: 'Please summarise' }],
  resources: [
    { uri: 'file:///guide.md', name: 'guide', text: '# The guide' },
    { uri: 'file:///secret.md', name: 'secret', text: 'classified' },
  ],
}

async function keyFor(opts: { group?: string; mcpTools?: string[] } = {}) {
  const user = await createUser({ quota: 1_000_000, group: opts.group })
  const token = await createToken(user.id)
  if (opts.mcpTools) await env.DB.prepare('UPDATE tokens SET mcp_tools = ? WHERE id = ?').bind(JSON.stringify(opts.mcpTools), token.id).run()
  return { user, key: token.key }
}

describe('gateway resource URIs', () => {
  it('round-trip any server URI and reject what is not one', () => {
    const uri = gatewayResourceUri('docs', 'file:///a b/c.md?x=1#y')
    expect(uri).toBe('mcp-gateway://docs/file%3A%2F%2F%2Fa%20b%2Fc.md%3Fx%3D1%23y')
    expect(parseGatewayResourceUri(uri)).toEqual({ server: 'docs', uri: 'file:///a b/c.md?x=1#y' })
    expect(parseGatewayResourceUri('file:///guide.md')).toBeUndefined()
    expect(parseGatewayResourceUri('mcp-gateway:///x')).toBeUndefined()
    expect(parseGatewayResourceUri('mcp-gateway://docs/%E0%A4%A')).toBeUndefined()
  })
})

describe('/mcp prompts and resources', () => {
  it('lists and fetches them from the group’s servers with their own headers, charging nothing', async () => {
    const root = await setupRoot()
    const mock = mockMcpServers({ 'https://calc.mcp.test': CALC, 'https://docs.mcp.test': DOCS, 'https://vip.mcp.test': DOCS })
    restore = mock.restore
    for (const [name, groups] of [
      ['calc', []],
      ['docs', []],
      ['vip', ['vip']],
    ] as const) {
      const res = await root.post('/api/mcp/server/', { name, url: `https://${name}.mcp.test/mcp`, headers: { authorization: `Bearer ${name}-secret` }, groups })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    const { user, key } = await keyFor()
    const client = await gatewayClient(key)

    const prompts = await client.listPrompts()
    expect(prompts.prompts.map((p) => p.name)).toEqual(['docs__summarise'])
    const got = await client.getPrompt({ name: 'docs__summarise', arguments: { topic: 'MCP' } })
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Please summarise MCP' })

    const resources = await client.listResources()
    expect(resources.resources.map((r) => [r.name, r.uri])).toEqual([
      ['docs__guide', 'mcp-gateway://docs/file%3A%2F%2F%2Fguide.md'],
      ['docs__secret', 'mcp-gateway://docs/file%3A%2F%2F%2Fsecret.md'],
    ])
    const read = await client.readResource({ uri: 'mcp-gateway://docs/file%3A%2F%2F%2Fguide.md' })
    expect(read.contents).toEqual([{ uri: 'mcp-gateway://docs/file%3A%2F%2F%2Fguide.md', mimeType: 'text/plain', text: '# The guide' }])

    // A server of another group is neither listed nor readable by guessing its URI.
    await expect(client.readResource({ uri: 'mcp-gateway://vip/file%3A%2F%2F%2Fguide.md' })).rejects.toThrow(/may not use/)
    await expect(client.getPrompt({ name: 'vip__summarise' })).rejects.toThrow(/may not use/)
    expect(mock.calls.some((c) => c.origin === 'https://vip.mcp.test')).toBe(false)

    const docsCalls = mock.calls.filter((c) => c.origin === 'https://docs.mcp.test')
    expect(docsCalls.map((c) => c.method)).toEqual(expect.arrayContaining(['prompts/list', 'prompts/get', 'resources/list', 'resources/read']))
    expect(docsCalls.every((c) => c.authorization === 'Bearer docs-secret')).toBe(true)

    const l = await ledger(user.id)
    expect(l.quota).toBe(1_000_000)
    expect(l.consumeLogs).toBe(0)
    await client.close()
  })

  it('applies the key’s allowlist to prompt and resource names', async () => {
    const root = await setupRoot()
    const mock = mockMcpServers({ 'https://docs.mcp.test': DOCS })
    restore = mock.restore
    expect((await root.post('/api/mcp/server/', { name: 'docs', url: 'https://docs.mcp.test/mcp' })).status).toBe(200)
    const { key } = await keyFor({ mcpTools: ['docs__guide'] })
    const client = await gatewayClient(key)
    expect((await client.listPrompts()).prompts).toEqual([])
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['docs__guide'])
    expect((await client.readResource({ uri: gatewayResourceUri('docs', 'file:///guide.md') })).contents[0]).toMatchObject({ text: '# The guide' })
    await expect(client.readResource({ uri: gatewayResourceUri('docs', 'file:///secret.md') })).rejects.toThrow(/may not use/)
    await expect(client.getPrompt({ name: 'docs__summarise' })).rejects.toThrow(/may not use/)
    await client.close()
  })
})
