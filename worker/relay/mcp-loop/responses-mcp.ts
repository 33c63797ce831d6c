/**
 * The Responses API adapter of the MCP tool loop (mcp-loop.ts): a /v1/responses request with
 * `mcp` tools answers one Response whose output is OpenAI's — an `mcp_list_tools` item per server,
 * then per model turn its text, its `mcp_call` items (arguments, output or error) and, at the end,
 * the final message (or the client's own function calls). Usage adds up every turn. When the loop
 * stopped at its bound the Response is `incomplete` with `incomplete_details.reason`
 * "max_tool_calls". Streaming is refused (400) with mcp tools: the turns run unstreamed.
 */
import type { Context } from 'hono'
import type { RelayAuth } from '../../access/token-auth'
import { ApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { type ChatMessage, mcpToolsOf, type ResponsesRequest, toChatBody } from '../inbound/responses/request'
import { assistantTurn, responseObject, type ResponseContext, statusOf, toResponse } from '../inbound/responses/response'
import { type LoopTurn, type McpCallRecord, runMcpLoop } from './mcp-loop'
import { resolveMcpTools, type McpToolSet } from './mcp-tools'
import { relayTurn } from './relay-turn'

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, '')}`

/** The request uses the MCP tool loop. */
export const usesMcp = (req: ResponsesRequest) => mcpToolsOf(req).length > 0

export const refuseMcpStream = (param = 'stream') =>
  new ApiError(400, 'stream: true is not supported together with mcp tools on this gateway; send the request without stream.', { code: 'unsupported_mcp_stream', param })

function listItems(set: McpToolSet) {
  return set.lists.map(({ label, tools }) => ({
    id: newId('mcpl'),
    type: 'mcp_list_tools',
    server_label: label,
    tools: tools.map((t) => ({ name: t.tool.name, description: t.tool.description ?? null, input_schema: t.tool.inputSchema, annotations: t.tool.annotations ?? null })),
    error: null,
  }))
}

const callItem = (r: McpCallRecord) => ({
  id: newId('mcp'),
  type: 'mcp_call',
  status: r.error === null ? 'completed' : 'failed',
  approval_request_id: null,
  server_label: r.label,
  name: r.name,
  arguments: r.arguments,
  output: r.output,
  error: r.error,
})

/** One turn's output items: its own items, with the MCP function calls shown as mcp_call items. */
function turnItems(ctx: ResponseContext, set: McpToolSet, turn: LoopTurn): Record<string, any>[] {
  const byCall = new Map(turn.calls.map((r) => [r.callId, r]))
  return (toResponse(ctx, turn.answer).output as Record<string, any>[]).flatMap((item) => {
    if (item.type !== 'function_call' || !set.offered.has(item.name)) return [item]
    const record = byCall.get(item.call_id)
    return record ? [callItem(record)] : []
  })
}

function sumUsage(turns: LoopTurn[]) {
  let input = 0
  let output = 0
  let cached = 0
  let reasoning = 0
  for (const { answer } of turns) {
    const u = answer.usage ?? {}
    input += Number(u.prompt_tokens ?? 0) || 0
    output += Number(u.completion_tokens ?? 0) || 0
    cached += Number(u.prompt_tokens_details?.cached_tokens ?? 0) || 0
    reasoning += Number(u.completion_tokens_details?.reasoning_tokens ?? 0) || 0
  }
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  }
}

export async function responsesWithMcp(
  c: Context<HonoEnv>,
  auth: RelayAuth,
  req: ResponsesRequest,
  history: ChatMessage[],
  onComplete?: (response: Record<string, any>, messages: ChatMessage[]) => void
): Promise<Response> {
  if (req.stream) throw refuseMcpStream()
  const set = await resolveMcpTools(c, auth, mcpToolsOf(req))
  const chat = toChatBody({ ...req, stream: false }, history)
  let headers: Headers | undefined
  const loop = await runMcpLoop(c, auth, chat, set, async (body, n) => {
    const turn = await relayTurn(c, body, n)
    headers = turn.headers
    return turn.answer
  })
  const ctx: ResponseContext = { id: newId('resp'), createdAt: Math.floor(Date.now() / 1000), req }
  const last = loop.turns[loop.turns.length - 1]!
  const finalItems = turnItems(ctx, set, last)
  const output = [...listItems(set), ...loop.turns.slice(0, -1).flatMap((t) => turnItems(ctx, set, t)), ...finalItems]
  const done = loop.incomplete ? { status: 'incomplete', incomplete_details: { reason: 'max_tool_calls' } } : statusOf(last.answer.choices?.[0]?.finish_reason)
  const response = responseObject(ctx, { ...done, model: last.answer.model, output, usage: sumUsage(loop.turns) })
  // The stored conversation: the loop's tool calls and results, then the final answer unless the loop's last messages already hold it.
  onComplete?.(response, last.calls.length ? loop.added : [...loop.added, assistantTurn(finalItems)])
  const res = Response.json(response)
  for (const [k, v] of headers ?? []) if (k.startsWith('x-ratelimit-')) res.headers.set(k, v)
  return res
}
