/**
 * The Responses API adapter of the MCP tool loop (mcp-loop.ts): a /v1/responses request with
 * `mcp` tools answers one Response whose output is OpenAI's (responses-mcp-output.ts) — an
 * `mcp_list_tools` item per server, then per model turn its text, its `mcp_call` items (arguments,
 * output or error) and, at the end, the final message (or the client's own function calls). Usage
 * adds up every turn. When the loop stopped at its bound the Response is `incomplete` with
 * `incomplete_details.reason` "max_tool_calls". With `stream: true` the same output goes out as
 * Responses events while the loop runs: every model turn is streamed (relay-turn.ts), its text
 * reaching the client as output_text.delta events as the model writes it, and its tool calls read
 * from the stream; a failure after the stream started ends it with `error` and `response.failed`.
 */
import type { Context } from 'hono'
import type { RelayAuth } from '../../access/token-auth'
import { toApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { type ChatMessage, mcpToolsOf, type ResponsesRequest, toChatBody } from '../inbound/responses/request'
import { assistantTurn, responseObject, type ResponseContext, statusOf } from '../inbound/responses/response'
import { type LoopResult, type LoopTurn, runMcpLoop } from './mcp-loop'
import { resolveMcpTools } from './mcp-tools'
import { McpOutput, newItemId } from './responses-mcp-output'
import { relayTurn } from './relay-turn'

/** The request uses the MCP tool loop. */
export const usesMcp = (req: ResponsesRequest) => mcpToolsOf(req).length > 0

type OnComplete = (response: Record<string, any>, messages: ChatMessage[]) => void

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

/** The finished Response, reported to `onComplete` with the conversation to store. */
function finalResponse(ctx: ResponseContext, out: McpOutput, loop: LoopResult, onComplete?: OnComplete) {
  const last = loop.turns[loop.turns.length - 1]!
  const done = loop.incomplete ? { status: 'incomplete', incomplete_details: { reason: 'max_tool_calls' } } : statusOf(last.answer.choices?.[0]?.finish_reason)
  const response = responseObject(ctx, { ...done, model: last.answer.model, output: out.items, usage: sumUsage(loop.turns) })
  // The stored conversation: the loop's tool calls and results, then the final answer unless the loop's last messages already hold it.
  onComplete?.(response, last.calls.length ? loop.added : [...loop.added, assistantTurn(out.items.slice(out.lastTurnStart))])
  return response
}

export async function responsesWithMcp(c: Context<HonoEnv>, auth: RelayAuth, req: ResponsesRequest, history: ChatMessage[], onComplete?: OnComplete): Promise<Response> {
  // Refusals (an unregistered server, approvals) come before anything runs, as a plain 400.
  const set = await resolveMcpTools(c, auth, mcpToolsOf(req))
  const chat = toChatBody({ ...req, stream: false }, history)
  const ctx: ResponseContext = { id: newItemId('resp'), createdAt: Math.floor(Date.now() / 1000), req }
  let headers: Headers | undefined
  const turnRunner = (onText?: (delta: string) => void) => async (body: Record<string, unknown>, n: number) => {
    const turn = await relayTurn(c, body, n, onText)
    headers = turn.headers
    return turn.answer
  }
  if (!req.stream) {
    const out = new McpOutput(ctx, set)
    out.lists()
    const loop = await runMcpLoop(c, auth, chat, set, turnRunner(), { onTurn: (t) => out.turn(t), onCall: (r) => out.call(r) })
    const res = Response.json(finalResponse(ctx, out, loop, onComplete))
    for (const [k, v] of headers ?? []) if (k.startsWith('x-ratelimit-')) res.headers.set(k, v)
    return res
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  const bytes = new TextEncoder()
  const out = new McpOutput(ctx, set, (frame) => void writer.write(bytes.encode(frame)).catch(() => undefined))
  const work = (async () => {
    out.start()
    out.lists()
    try {
      const loop = await runMcpLoop(
        c,
        auth,
        chat,
        set,
        turnRunner((delta) => out.textDelta(delta)),
        { onTurn: (t) => out.turn(t), onCall: (r) => out.call(r) }
      )
      out.finish(finalResponse(ctx, out, loop, onComplete))
    } catch (err) {
      const e = toApiError(err)
      out.fail(req.model, { code: e.code ?? 'server_error', message: e.status >= 500 && !e.code ? 'The MCP tool loop failed.' : e.message })
    } finally {
      await writer.close().catch(() => undefined)
    }
  })()
  c.executionCtx.waitUntil(work)
  return new Response(readable, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
}
