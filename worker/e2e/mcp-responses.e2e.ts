/**
 * The remote MCP tool loop end to end: the official `openai` SDK's `responses.create` with an `mcp`
 * tool naming a registered tool server (the SDK's own MCP server, started here) on a Custom
 * (OpenAI-compatible) channel of the mock upstream, whose model calls the tool and then answers
 * with its result. The answer shows the tool list, the call and a message that used the result;
 * the balance moves by exactly the logged quota of both model turns and the tool call; streamed,
 * the SDK reads the mcp_call events, the final text as output_text deltas and the same final
 * answer; chat completions with `stream: true` stream the final answer as chunks with the usage.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'
import { startCalcServer } from './support/mcp-calc'

const SECRET = 'loop-calc-secret'
const SERVER = 'loopcalc'
let upstream: Awaited<ReturnType<typeof startCalcServer>>
let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

beforeAll(async () => {
  upstream = await startCalcServer(SECRET)
  fixture = await relayFixture({ model: 'mcp-loop-e2e-model', username: `mcploop${Date.now().toString(36)}` })
  await fixture.root.ok('POST', '/api/prices/single', { model: `mcp/${SERVER}/add`, type: 'times', channel_type: 1, input: 0.5, output: 0 })
  await fixture.root.ok('POST', '/api/mcp/server/', { name: SERVER, url: upstream.url, headers: { authorization: `Bearer ${SECRET}` } })
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

afterAll(() => upstream?.close())

describe('official openai SDK: remote MCP tools', () => {
  it('answers with a message that used the tool the model called, each turn and the call billed', async () => {
    const startQuota = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
    const res = await client.responses.create({
      model: fixture.model,
      input: 'What is 2 + 3?',
      tools: [{ type: 'mcp', server_label: 'calculator', server_url: SERVER, allowed_tools: ['add'], require_approval: 'never' }],
    })
    expect(res.status).toBe('completed')
    expect(res.output.map((o) => o.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    expect(res.output[0]).toMatchObject({ server_label: 'calculator', tools: [expect.objectContaining({ name: 'add' })] })
    expect(res.output[1]).toMatchObject({ server_label: 'calculator', name: 'add', arguments: '{"a":2,"b":3}', output: '5', error: null })
    expect(res.output_text).toContain('The tool answered: 5')
    expect(upstream.seenAuth.every((a) => a === `Bearer ${SECRET}`)).toBe(true)
    // Two model turns and one tool call: three consume rows, the balance down by exactly their sum.
    await expectBalanceMatchesLogs(fixture.user, startQuota, 3)
    const rows = (await fixture.user.ok<{ data: { model_name: string; quota: number }[] }>('GET', '/api/log/self?type=2&page_size=100')).data
    expect(rows.map((r) => r.model_name).sort()).toEqual([fixture.model, fixture.model, `mcp/${SERVER}/add`])
    expect(rows.find((r) => r.model_name.startsWith('mcp/'))!.quota).toBe(500)
  })

  it('streams the mcp_call events and the final response through the SDK', async () => {
    const stream = await client.responses.create({
      model: fixture.model,
      input: 'What is 2 + 3?',
      stream: true,
      tools: [{ type: 'mcp', server_label: 'calculator', server_url: SERVER, require_approval: 'never' }],
    })
    const types: string[] = []
    let text = ''
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') completed = event.response
    }
    // The final turn streamed: its text came as several deltas that add up to the message.
    expect(types.filter((t) => t === 'response.output_text.delta').length).toBeGreaterThan(1)
    expect(text).toContain('The tool answered: 5')
    expect(types).toEqual(expect.arrayContaining(['response.mcp_list_tools.completed', 'response.mcp_call_arguments.done', 'response.mcp_call.completed']))
    expect(types.at(-1)).toBe('response.completed')
    // The SDK adds output_text only to non-streamed responses: read the message item.
    const message = completed!.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage
    expect(message.content[0]).toMatchObject({ type: 'output_text', text: expect.stringContaining('The tool answered: 5') })
  })

  it('streams a chat completion that used the tool, with the turns’ usage', async () => {
    const stream = await client.chat.completions.create({
      model: fixture.model,
      messages: [{ role: 'user', content: 'What is 2 + 3?' }],
      stream: true,
      stream_options: { include_usage: true },
      // The chat API has no mcp tool type; the gateway accepts a registered server by name.
      tools: [{ type: 'mcp', server_label: SERVER } as unknown as OpenAI.Chat.ChatCompletionTool],
    })
    let text = ''
    let finish: string | null = null
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      usage = chunk.usage ?? usage
      expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined()
    }
    expect(text).toContain('The tool answered: 5')
    expect(finish).toBe('stop')
    expect(usage!.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens)
    expect(usage!.prompt_tokens).toBeGreaterThan(0)
  })

  it('refuses a server URL that is not a registered server with the SDK’s BadRequestError', async () => {
    const err = await client.responses
      .create({ model: fixture.model, input: 'x', tools: [{ type: 'mcp', server_label: 'x', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' }] })
      .catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect(err.message).toContain('not a tool server registered')
  })
})
