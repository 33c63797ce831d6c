/**
 * The MCP gateway against upstream tool servers played by the SDK's own server: registration
 * through the admin API (headers write-only, the outbound guard), tool aggregation and name clashes,
 * the key's allowlist, per-tool prices charged exactly with one log row (a subscription's first,
 * unless the plan is limited to channel tags), refusal of unpriced tools,
 * free servers, servers that fail or time out (refunded, error row), and a server announcing that
 * its tool list changed (relisted, the notice passed on).
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createSubscription, createToken, createUser, ledger, send, setPrice } from '../test/factories'
import { setupRoot, type TestClient } from '../test/client'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { CALC, gatewayClient, type MockServerSpec, mockMcpServers } from '../test/mcp-mock'

const START = 1_000_000
let restore: (() => void) | undefined
afterEach(() => restore?.())

function serve(servers: Parameters<typeof mockMcpServers>[0]) {
  const mock = mockMcpServers(servers)
  restore = mock.restore
  return mock
}

async function register(root: TestClient, body: Record<string, unknown>) {
  const res = await root.post('/api/mcp/server/', { headers: { authorization: 'Bearer server-secret' }, ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number }
}

async function keyFor(mcpTools?: string[]) {
  const user = await createUser({ quota: START })
  const token = await createToken(user.id)
  if (mcpTools) await env.DB.prepare('UPDATE tokens SET mcp_tools = ? WHERE id = ?').bind(JSON.stringify(mcpTools), token.id).run()
  return { user, key: token.key }
}

const mcpLogs = (userId: number) =>
  env.DB.prepare(`SELECT type, quota, model_name, content, metadata FROM logs WHERE user_id = ? AND model_name LIKE 'mcp/%' ORDER BY id`).bind(userId).all<Record<string, any>>()

describe('MCP servers (admin API)', () => {
  it('never returns the headers, refuses a bad name or a link-local URL, and lists tools on test', async () => {
    const root = await setupRoot()
    const mock = serve({ 'https://calc.mcp.test': CALC })
    const { id } = await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp' })
    const view = await root.get(`/api/mcp/server/${id}`)
    expect(view.body.data).toMatchObject({ name: 'calc', header_names: ['authorization'], enabled: true, timeout_ms: 30000, free: false })
    expect(JSON.stringify(view.body)).not.toContain('server-secret')
    expect((await root.post('/api/mcp/server/', { name: 'Calc!', url: 'https://calc.mcp.test/mcp' })).status).toBe(400)
    const metadata = await root.post('/api/mcp/server/', { name: 'meta', url: 'http://169.254.169.254/mcp' })
    expect(metadata.status).toBe(400)
    expect(metadata.body.success).toBe(false)

    const test = await root.post(`/api/mcp/server/${id}/test`)
    expect(test.status).toBe(200)
    expect(test.body.data.tools).toEqual([expect.objectContaining({ name: 'add', gateway_name: 'calc__add', description: 'Add two numbers' })])
    expect(mock.calls.every((c) => c.authorization === 'Bearer server-secret')).toBe(true)

    // A new URL does not take the saved headers along.
    const moved = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc2.mcp.test/mcp' })
    expect(moved.status).toBe(400)
    expect(moved.body.message).toContain('headers')
  })

  it('reports a server that fails as 502 on test', async () => {
    const root = await setupRoot()
    serve({ 'https://down.mcp.test': { tools: [], broken: true } })
    const { id } = await register(root, { name: 'down', url: 'https://down.mcp.test/mcp' })
    const res = await root.post(`/api/mcp/server/${id}/test`)
    expect(res.status).toBe(502)
    expect(res.body).toMatchObject({ success: false })
  })
})

describe('/mcp', () => {
  it('aggregates the group’s tools as <server>__<tool>, the earlier server keeping a clashing name', async () => {
    const root = await setupRoot()
    serve({
      'https://a.mcp.test': {
        tools: [
          { name: 'b__c', run: () => ({ content: [{ type: 'text', text: 'from a' }] }) },
          { name: 'x', run: () => ({ content: [] }) },
        ],
      },
      'https://ab.mcp.test': { tools: [{ name: 'c', run: () => ({ content: [{ type: 'text', text: 'from a__b' }] }) }] },
      'https://vip.mcp.test': CALC,
    })
    await register(root, { name: 'a', url: 'https://a.mcp.test/mcp', free: true })
    await register(root, { name: 'a__b', url: 'https://ab.mcp.test/mcp', free: true })
    await register(root, { name: 'vip', url: 'https://vip.mcp.test/mcp', groups: ['vip'] })
    const { key } = await keyFor()
    const client = await gatewayClient(key)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['a__b__c', 'a__x'])
    const res = await client.callTool({ name: 'a__b__c', arguments: {} })
    expect(res.content).toEqual([{ type: 'text', text: 'from a' }])
    await client.close()
  })

  it('relists a server that announces list_changed during a call, and passes the notice on to the client', async () => {
    const root = await setupRoot()
    const spec: MockServerSpec = { tools: [] }
    spec.tools.push({
      name: 'unlock',
      listChanged: true,
      run: () => {
        spec.tools.push({ name: 'secret', run: () => ({ content: [{ type: 'text', text: 'unlocked' }] }) })
        return { content: [{ type: 'text', text: 'done' }] }
      },
    })
    const mock = serve({ 'https://grow.mcp.test': spec })
    await register(root, { name: 'grow', url: 'https://grow.mcp.test/mcp', free: true })
    const { key } = await keyFor()
    const client = await gatewayClient(key)
    let notices = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notices++
    })
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['grow__unlock'])
    const lists = () => mock.calls.filter((c) => c.method === 'tools/list').length
    const listedBefore = lists()
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['grow__unlock'])
    expect(lists()).toBe(listedBefore) // served from the cache

    expect((await client.callTool({ name: 'grow__unlock', arguments: {} })).content).toEqual([{ type: 'text', text: 'done' }])
    expect(notices).toBe(1)
    expect(lists()).toBe(listedBefore + 1)
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['grow__unlock', 'grow__secret'])
    expect((await client.callTool({ name: 'grow__secret', arguments: {} })).content).toEqual([{ type: 'text', text: 'unlocked' }])
    await client.close()
  })

  it('charges a priced tool exactly, with one log row naming tool, server, status and argument size', async () => {
    const root = await setupRoot()
    const mock = serve({ 'https://calc.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp' })
    await setPrice('mcp/calc/add', 2, 0, 'times')
    const { user, key } = await keyFor()
    const client = await gatewayClient(key)
    const res = await client.callTool({ name: 'calc__add', arguments: { a: 2, b: 3 } })
    expect(res.content).toEqual([{ type: 'text', text: '5' }])
    const l = await ledger(user.id)
    expect(l.quota).toBe(START - 2_000)
    expect(l.consumeLogs).toBe(1)
    expect(l.loggedQuota).toBe(2_000)
    const [row] = (await mcpLogs(user.id)).results
    expect(row).toMatchObject({ type: 2, quota: 2_000, model_name: 'mcp/calc/add' })
    const meta = JSON.parse(row!.metadata)
    expect(meta).toMatchObject({ mcp_server: 'calc', mcp_tool: 'add', mcp_status: 'ok', arguments_bytes: JSON.stringify({ a: 2, b: 3 }).length })
    expect(typeof meta.duration_ms).toBe('number')
    expect(row!.content + row!.metadata).not.toContain('"a":2')
    // The upstream saw the server's stored credentials, never the client's key.
    const call = mock.calls.find((c) => c.method === 'tools/call')!
    expect(call.authorization).toBe('Bearer server-secret')
    expect(call.params).toMatchObject({ name: 'add', arguments: { a: 2, b: 3 } })
    await client.close()
  })

  it('draws a priced call from the user’s subscription first, one request per call, and refuses past it when the plan forbids the balance', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp' })
    await setPrice('mcp/calc/add', 2, 0, 'times')
    const { user, key } = await keyFor()
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 2 }], allow_balance_fallback: false })
    const client = await gatewayClient(key)
    for (const b of [1, 2]) expect((await client.callTool({ name: 'calc__add', arguments: { a: 1, b } })).content).toEqual([{ type: 'text', text: String(1 + b) }])
    const third = await client.callTool({ name: 'calc__add', arguments: { a: 1, b: 3 } }).catch((err: Error) => err)
    expect(third).toBeInstanceOf(Error)
    expect((third as Error).message).toContain('allowance for this request is used up')
    const l = await ledger(user.id)
    // The balance never moved: both calls drew from the plan, on rows naming the subscription.
    expect(l.quota).toBe(START)
    const rows = await env.DB.prepare(`SELECT quota, subscription_id FROM logs WHERE user_id = ? AND type = 2 AND model_name LIKE 'mcp/%'`)
      .bind(user.id)
      .all<{ quota: number; subscription_id: number }>()
    expect(rows.results).toEqual([
      { quota: 2_000, subscription_id: sub },
      { quota: 2_000, subscription_id: sub },
    ])
    await client.close()
  })

  it('a plan limited to channel tags does not cover tool calls (no channel serves them): the balance pays', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp' })
    await setPrice('mcp/calc/add', 2, 0, 'times')
    const { user, key } = await keyFor()
    await createSubscription(user.id, { windows: [{ period: 'day', requests: 10 }], channel_tags: ['premium'] })
    const client = await gatewayClient(key)
    expect((await client.callTool({ name: 'calc__add', arguments: { a: 1, b: 1 } })).content).toEqual([{ type: 'text', text: '2' }])
    expect((await ledger(user.id)).quota).toBe(START - 2_000)
    const rows = await env.DB.prepare(`SELECT subscription_id FROM logs WHERE user_id = ? AND type = 2 AND model_name LIKE 'mcp/%'`).bind(user.id).all()
    expect(rows.results).toEqual([{ subscription_id: 0 }])
    await client.close()
  })

  it('prices by the server default mcp/<server>/* and refuses an unpriced tool unless the server is free', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC, 'https://free.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp' })
    await register(root, { name: 'freecalc', url: 'https://free.mcp.test/mcp', free: true })
    const { user, key } = await keyFor()
    const client = await gatewayClient(key)
    await expect(client.callTool({ name: 'calc__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/no price/)
    expect((await ledger(user.id)).quota).toBe(START)
    expect((await mcpLogs(user.id)).results).toHaveLength(0)

    const free = await client.callTool({ name: 'freecalc__add', arguments: { a: 1, b: 1 } })
    expect(free.content).toEqual([{ type: 'text', text: '2' }])
    await setPrice('mcp/calc/*', 3, 0, 'times')
    await client.callTool({ name: 'calc__add', arguments: { a: 1, b: 1 } })
    const l = await ledger(user.id)
    expect(l.quota).toBe(START - 3_000)
    expect((await mcpLogs(user.id)).results.map((r) => [r.model_name, r.quota])).toEqual([
      ['mcp/freecalc/add', 0],
      ['mcp/calc/add', 3_000],
    ])
    await client.close()
  })

  it('hides tools outside the key’s allowlist and refuses calling them', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC, 'https://web.mcp.test': { tools: [{ name: 'fetch', run: () => ({ content: [] }) }] } })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp', free: true })
    await register(root, { name: 'web', url: 'https://web.mcp.test/mcp', free: true })
    const { user, key } = await keyFor(['web__*'])
    const client = await gatewayClient(key)
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['web__fetch'])
    await expect(client.callTool({ name: 'calc__add', arguments: { a: 1, b: 2 } })).rejects.toThrow(/may not use/)
    expect((await mcpLogs(user.id)).results).toHaveLength(0)
    await client.close()
  })

  it('takes the allowlist from the token API, and keeps it when an update leaves it out', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp', free: true })
    const form = { name: 'agent', remain_quota: 0, unlimited_quota: true, expired_time: -1 }
    expect((await root.post('/api/token/', { ...form, mcp_tools: ['bad pattern!'] })).status).toBe(400)
    const created = await root.post('/api/token/', { ...form, mcp_tools: ['other__*'] })
    expect(created.body.data.mcp_tools).toEqual(['other__*'])
    const { id, key } = created.body.data
    const updated = await root.put('/api/token/', { ...form, id, name: 'agent 2' })
    expect(updated.body.data.mcp_tools).toEqual(['other__*'])
    const client = await gatewayClient(key)
    expect((await client.listTools()).tools).toEqual([])
    await client.close()
    await root.put('/api/token/', { ...form, id, mcp_tools: [] })
    const again = await gatewayClient(key)
    expect((await again.listTools()).tools.map((t) => t.name)).toEqual(['calc__add'])
    await again.close()
  })

  it('refunds a call whose server errors or times out, with one error row and a tool error for the client', async () => {
    const root = await setupRoot()
    const boom = () => {
      throw new Error('kaput')
    }
    serve({
      'https://slow.mcp.test': {
        tools: [
          { name: 'wait', hang: true },
          { name: 'boom', run: boom },
        ],
      },
    })
    const { id } = await register(root, { name: 'slow', url: 'https://slow.mcp.test/mcp', timeout_ms: 1000 })
    await setPrice('mcp/slow/*', 1, 0, 'times')
    const { user, key } = await keyFor()
    const client = await gatewayClient(key)
    const res = await client.callTool({ name: 'slow__wait', arguments: {} })
    expect(res.isError).toBe(true)
    expect(JSON.stringify(res.content)).toContain('no answer within 1000 ms')
    const l = await ledger(user.id)
    expect(l.quota).toBe(START)
    expect(l.consumeLogs).toBe(0)
    const rows = (await mcpLogs(user.id)).results
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ type: 5, quota: 0 })
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ mcp_server: 'slow', mcp_status: 'timeout' })

    const failed = await client.callTool({ name: 'slow__boom', arguments: {} })
    expect(failed.isError).toBe(true)
    expect(JSON.stringify(failed.content)).toContain('kaput')
    const after = await ledger(user.id)
    expect([after.quota, after.consumeLogs]).toEqual([START, 0])
    const last = (await mcpLogs(user.id)).results[1]!
    expect(last).toMatchObject({ type: 5, quota: 0, model_name: 'mcp/slow/boom' })
    expect(JSON.parse(last.metadata)).toMatchObject({ mcp_status: 'error' })
    expect(id).toBeGreaterThan(0)
    await client.close()
  })

  it('needs an API key and a session of that key; DELETE ends the session', async () => {
    const root = await setupRoot()
    serve({ 'https://calc.mcp.test': CALC })
    await register(root, { name: 'calc', url: 'https://calc.mcp.test/mcp', free: true })
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
    const accept = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }
    expect((await send('/mcp', { json: list, headers: accept })).status).toBe(401)
    const a = await keyFor()
    const b = await keyFor()
    const client = await gatewayClient(a.key)
    const session = (client.transport as any).sessionId as string
    expect(session).toMatch(/^\d+\.\d+\.\w+\.\w+$/)
    expect((await send('/mcp', { key: a.key, json: list, headers: accept })).status).toBe(400)
    expect((await send('/mcp', { key: b.key, json: list, headers: { ...accept, 'mcp-session-id': session } })).status).toBe(404)
    expect((await send('/mcp', { key: a.key, json: list, headers: { ...accept, 'mcp-session-id': session } })).status).toBe(200)
    expect((await send('/mcp', { key: a.key, method: 'GET', headers: accept })).status).toBe(405)
    expect((await send('/mcp', { key: a.key, method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(200)
    expect((await send('/mcp', { key: a.key, json: list, headers: { ...accept, 'mcp-session-id': session } })).status).toBe(404)
  })
})
