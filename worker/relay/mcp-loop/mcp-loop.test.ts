/**
 * The remote MCP tool loop on /v1/responses and /v1/chat/completions, against a mock model on a
 * Custom (OpenAI-compatible) channel that asks for `calc__add` and then answers with its result,
 * and the SDK's own MCP server: the tool runs once and is billed once like a /mcp call, every model
 * turn is its own billed line, the loop stops at its bound, an unregistered server or an approval
 * is refused with 400 before anything is billed, a streamed answer carries the mcp events, and a tool outside the key's allowlist is never offered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ledger, send } from '../../test/factories'
import { FOREVER, keyFor, MCP, MODEL, model, rows, setupLoop, START, toolCalls } from '../../test/mcp-loop-model'
import { decodeSse } from '../../test/stream-harness'
import { MAX_MCP_TURNS } from './mcp-loop'

const bodies = () => model.bodies
beforeEach(setupLoop)
afterEach(() => model.mock?.restore())

describe('remote MCP tools on /v1/responses', () => {
  it('lists the tools, runs the call the model asks for once, and answers with its result; every turn and the call billed once', async () => {
    const { user, key } = await keyFor()
    const res = await send('/v1/responses', {
      key,
      json: { model: MODEL, input: 'What is 2 + 3?', tools: [{ ...MCP, server_url: 'https://calc.mcp.test/mcp', allowed_tools: ['add'] }] },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ object: 'response', status: 'completed', incomplete_details: null, model: MODEL })
    expect(res.json.output).toMatchObject([
      { type: 'mcp_list_tools', server_label: 'calc', tools: [{ name: 'add', description: 'Add two numbers' }], error: null },
      { type: 'mcp_call', server_label: 'calc', name: 'add', arguments: '{"a":2,"b":3}', output: '5', error: null, status: 'completed' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The sum is 5.' }] },
    ])
    expect(res.json.usage).toMatchObject({ input_tokens: 20, output_tokens: 10, total_tokens: 30 })
    // The model saw the tool as a function, then its result.
    expect(bodies()[0].tools.map((t: any) => t.function.name)).toEqual(['calc__add'])
    expect(bodies()[1].messages.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ function: { name: 'calc__add' } }] },
      { role: 'tool', content: '5' },
    ])
    expect(toolCalls()).toHaveLength(1)
    expect(toolCalls()[0]).toMatchObject({ authorization: 'Bearer server-secret', params: { name: 'add', arguments: { a: 2, b: 3 } } })

    // A turn settles behind its answer and the call settles at once, so the rows' order varies.
    const logged = (await rows(user.id)).results
    expect(logged.every((r) => r.type === 2)).toBe(true)
    const turns = logged.filter((r) => r.model_name === MODEL)
    const calls = logged.filter((r) => r.model_name === 'mcp/calc/add')
    expect([turns.length, calls.length, logged.length]).toEqual([2, 1, 3])
    expect(calls[0]!.quota).toBe(2_000)
    for (const t of turns) expect(t.quota).toBeGreaterThan(0)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(3)
    expect(l.quota).toBe(START - l.loggedQuota)

    // Stored like any response, with the tool round in the conversation.
    const stored = await send(`/v1/responses/${res.json.id}`, { key })
    expect(stored.json.output).toHaveLength(3)
  })

  it('stops after MAX_MCP_TURNS model turns with an incomplete response, running no call it cannot answer', async () => {
    const { user, key } = await keyFor()
    const res = await send('/v1/responses', { key, json: { model: FOREVER, input: 'Loop', tools: [MCP] } })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_tool_calls' } })
    const calls = res.json.output.filter((o: any) => o.type === 'mcp_call')
    expect(calls).toHaveLength(MAX_MCP_TURNS)
    expect(calls.at(-1)).toMatchObject({ status: 'failed', output: null, error: expect.stringContaining('limit of 8 model turns') })
    expect(bodies()).toHaveLength(MAX_MCP_TURNS)
    expect(toolCalls()).toHaveLength(MAX_MCP_TURNS - 1)
    const logged = (await rows(user.id)).results
    expect(logged.filter((r) => r.model_name === FOREVER)).toHaveLength(MAX_MCP_TURNS)
    expect(logged.filter((r) => r.model_name.startsWith('mcp/'))).toHaveLength(MAX_MCP_TURNS - 1)
    const l = await ledger(user.id)
    expect(l.quota).toBe(START - l.loggedQuota)
  })

  it.each([
    ['an unregistered server URL', { ...MCP, server_url: 'https://evil.example/mcp' }, 'invalid_mcp_tool'],
    ['approvals', { ...MCP, require_approval: 'always' }, 'unsupported_approval'],
    ['client headers', { ...MCP, headers: { authorization: 'Bearer mine' } }, 'invalid_mcp_tool'],
  ])('refuses %s with 400 in the OpenAI envelope, calling and billing nothing', async (_name, tool, code) => {
    const { user, key } = await keyFor()
    const res = await send('/v1/responses', { key, json: { model: MODEL, input: 'x', tools: [tool] } })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code, param: 'tools' })
    expect(bodies()).toHaveLength(0)
    expect((await rows(user.id)).results).toHaveLength(0)
  })

  it('streams the list, the call and the final message as Responses events, ending with the same response', async () => {
    const { user, key } = await keyFor()
    const res = await send('/v1/responses', { key, json: { model: MODEL, input: 'What is 2 + 3?', stream: true, tools: [MCP] } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const events = decodeSse(res.text).map((e) => JSON.parse(e.data))
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.mcp_list_tools.in_progress',
      'response.mcp_list_tools.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.in_progress',
      'response.mcp_call.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(events[11].item).toMatchObject({ type: 'mcp_call', name: 'add', output: '5', status: 'completed' })
    // Every turn was streamed; the final text went out as the model's own deltas, under one item id.
    expect(bodies().map((b) => [b.stream, b.stream_options?.include_usage])).toEqual([
      [true, true],
      [true, true],
    ])
    const deltas = events.filter((e) => e.type === 'response.output_text.delta')
    expect(deltas.map((e) => e.delta)).toEqual(['The sum is ', '5.'])
    expect(new Set([events[12].item.id, ...deltas.map((e) => e.item_id), events[18].item.id]).size).toBe(1)
    expect(events[16]).toMatchObject({ type: 'response.output_text.done', text: 'The sum is 5.' })
    const final = events.at(-1).response
    expect(final.output.map((o: any) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    expect(final.output[2].content[0].text).toBe('The sum is 5.')
    expect(final.output[1].id).toBe(events[11].item.id)
    expect(final.output[2].id).toBe(events[18].item.id)
    expect(final.usage).toMatchObject({ input_tokens: 20, output_tokens: 10, total_tokens: 30 })
    expect(toolCalls()).toHaveLength(1)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(3)
    expect(l.quota).toBe(START - l.loggedQuota)
  })

  it('never offers a tool outside the key’s allowlist', async () => {
    const { key } = await keyFor(['calc__mul'])
    const res = await send('/v1/responses', { key, json: { model: MODEL, input: 'x', tools: [MCP] } })
    expect(res.status, res.text).toBe(200)
    expect(bodies()[0].tools.map((t: any) => t.function.name)).toEqual(['calc__mul'])
    expect(res.json.output[0].tools.map((t: any) => t.name)).toEqual(['mul'])
    expect(toolCalls().map((c) => c.params.name)).toEqual(['mul'])
  })
})

describe('remote MCP tools on /v1/chat/completions', () => {
  it('runs the loop for a registered server name and answers the final message with the turns’ usage', async () => {
    const { user, key } = await keyFor()
    const res = await send('/v1/chat/completions', {
      key,
      json: { model: MODEL, messages: [{ role: 'user', content: 'What is 2 + 3?' }], tools: [{ type: 'mcp', server_label: 'calc', allowed_tools: ['add'] }] },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'The sum is 5.' }, finish_reason: 'stop' })
    expect(res.json.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 })
    expect(toolCalls()).toHaveLength(1)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(3)
    expect(l.quota).toBe(START - l.loggedQuota)
  })
})
