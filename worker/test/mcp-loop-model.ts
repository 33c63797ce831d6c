/**
 * The fixture of the remote MCP tool loop tests (relay/mcp-loop/): a mock model on a Custom
 * (OpenAI-compatible) channel that calls the first offered `calc__` tool until the last message is
 * a tool's result (FOREVER: always), then says "The sum is <result>."; answered as JSON, or with
 * `stream: true` as chat.completion.chunk SSE — the text in two deltas, the tool call in fragments,
 * the usage chunk, `[DONE]`. `model.hold` (when set) delays the rest of a streamed answer's text
 * after its first delta, so a test can see the first delta arrive before the model finished. The
 * SDK's own MCP server plays `calc` (add, mul), priced 2 per call; the model is priced too.
 */
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import { createChannel, createToken, createUser, ledger, setPrice } from './factories'
import { setupRoot } from './client'
import { mockMcpServers, type MockServerSpec } from './mcp-mock'

export const START = 10_000_000
export const MODEL = 'mcp-loop-model'
export const FOREVER = 'mcp-loop-forever'
export const TURN_USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
export const MCP = { type: 'mcp', server_label: 'calc', server_url: 'calc', require_approval: 'never' }

const CALC: MockServerSpec = {
  tools: [
    { name: 'add', description: 'Add two numbers', run: (a) => ({ content: [{ type: 'text', text: String(Number(a.a) + Number(a.b)) }] }) },
    { name: 'mul', description: 'Multiply two numbers', run: (a) => ({ content: [{ type: 'text', text: String(Number(a.a) * Number(a.b)) }] }) },
  ],
}

export const model = {
  /** Every chat body the model received. */
  bodies: [] as any[],
  mock: undefined as ReturnType<typeof mockMcpServers> | undefined,
  /** Awaited after a streamed text answer's first delta. */
  hold: undefined as Promise<void> | undefined,
}

const sse = (chunks: unknown[], hold?: Promise<void>) => {
  const bytes = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [i, chunk] of chunks.entries()) {
        if (i === 2 && hold) await hold
        controller.enqueue(bytes.encode(`data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`))
      }
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
}

function streamed(body: any, message: any, finish: string) {
  const base = { id: `chatcmpl-${model.bodies.length}`, object: 'chat.completion.chunk', created: 1, model: body.model }
  const delta = (d: unknown, finish_reason: string | null = null) => ({ ...base, choices: [{ index: 0, delta: d, finish_reason }] })
  const deltas = message.tool_calls
    ? [
        delta({
          role: 'assistant',
          tool_calls: [{ index: 0, id: message.tool_calls[0].id, type: 'function', function: { name: message.tool_calls[0].function.name, arguments: '' } }],
        }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":2,' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }),
      ]
    : [delta({ role: 'assistant', content: message.content.slice(0, 11) }), delta({ content: message.content.slice(11) })]
  const usage = body.stream_options?.include_usage ? [{ ...base, choices: [], usage: TURN_USAGE }] : []
  return sse([...deltas, delta({}, finish), ...usage, '[DONE]'], message.tool_calls ? undefined : model.hold)
}

async function answer(req: Request): Promise<Response | undefined> {
  if (!req.url.startsWith('https://model.test')) return undefined
  const body = (await req.json()) as any
  model.bodies.push(body)
  const lastMsg = body.messages[body.messages.length - 1]
  const tool = body.tools?.find((t: any) => t.function.name.startsWith('calc__'))
  const message =
    lastMsg.role === 'tool' && body.model !== FOREVER
      ? { role: 'assistant', content: `The sum is ${lastMsg.content}.` }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${model.bodies.length}`, type: 'function', function: { name: tool.function.name, arguments: '{"a":2,"b":3}' } }],
        }
  const finish = message.tool_calls ? 'tool_calls' : 'stop'
  if (body.stream) return streamed(body, message, finish)
  return Response.json({
    id: `chatcmpl-${model.bodies.length}`,
    object: 'chat.completion',
    created: 1,
    model: body.model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: TURN_USAGE,
  })
}

/** Before each test: the mock servers, the `calc` tool server (registered by root), prices and the model's channel. */
export async function setupLoop() {
  model.bodies = []
  model.hold = undefined
  model.mock = mockMcpServers({ 'https://calc.mcp.test': CALC }, answer)
  const root = await setupRoot()
  const res = await root.post('/api/mcp/server/', { name: 'calc', url: 'https://calc.mcp.test/mcp', headers: { authorization: 'Bearer server-secret' } })
  expect(res.status).toBe(200)
  await setPrice('mcp/calc/*', 2, 0, 'times')
  await setPrice(MODEL, 1, 2)
  await setPrice(FOREVER, 1, 2)
  await createChannel({ key: 'loop-key', type: 8, baseUrl: 'https://model.test', models: `${MODEL},${FOREVER}` })
}

export async function keyFor(mcpTools?: string[]) {
  const user = await createUser({ quota: START })
  const token = await createToken(user.id)
  if (mcpTools) await env.DB.prepare('UPDATE tokens SET mcp_tools = ? WHERE id = ?').bind(JSON.stringify(mcpTools), token.id).run()
  return { user, key: token.key }
}

/** The user's consume and error rows (after the wallet wrote them). */
export const rows = async (userId: number) => {
  await ledger(userId)
  return env.DB.prepare('SELECT type, quota, model_name FROM logs WHERE user_id = ? AND type IN (2, 5) ORDER BY id')
    .bind(userId)
    .all<{ type: number; quota: number; model_name: string }>()
}

export const toolCalls = () => model.mock!.calls.filter((c) => c.method === 'tools/call')
