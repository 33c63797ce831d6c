/**
 * The chat completions adapter of the MCP tool loop (mcp-loop.ts): a /v1/chat/completions request
 * whose tools include `{"type":"mcp","server_label":"<registered server>", …}` runs the loop and
 * answers the final turn's chat completion, with usage added up over every turn. `require_approval`
 * may be omitted here (chat has no approvals; only "never" is accepted). When the loop stopped at its
 * bound, finish_reason is "length"; the MCP calls an answer asks for are never shown to the client
 * (it could not answer them). With `stream: true` the answer streams as chat.completion.chunk SSE
 * (chat-mcp-stream.ts).
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { admit } from '../../access/admit'
import { validationError } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { runMcpLoop } from './mcp-loop'
import { type McpToolSpec, mcpToolSchema } from './mcp-tool-spec'
import { resolveMcpTools } from './mcp-tools'
import { relayTurn } from './relay-turn'
import { clientToolCalls, streamChatWithMcp, sumChatUsage } from './chat-mcp-stream'

const chatTools = z.looseObject({
  tools: z.array(z.union([mcpToolSchema, z.looseObject({ type: z.literal('function') })], { error: 'tools must be function tools or mcp tools' })).max(512),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
})

/** The chat request has mcp tools: answered by the loop; otherwise undefined (the plain relay answers it). */
export async function chatWithMcp(c: Context<HonoEnv>): Promise<Response | undefined> {
  // A body that is not JSON is the plain relay's to refuse (c.req.json() caches what it read).
  const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || !Array.isArray(body.tools) || !body.tools.some((t) => (t as { type?: unknown })?.type === 'mcp')) return undefined
  const auth = await admit(c)
  const parsed = chatTools.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  const specs = parsed.data.tools.filter((t): t is McpToolSpec => t.type === 'mcp')
  const set = await resolveMcpTools(c, auth, specs, { approvalDefault: 'never' })
  const chat = { ...body, tools: parsed.data.tools.filter((t) => t.type !== 'mcp') }
  if ((chat.tools as unknown[]).length === 0) delete (chat as { tools?: unknown }).tools
  if (parsed.data.stream) return streamChatWithMcp(c, auth, chat, set, parsed.data.stream_options?.include_usage === true)
  let headers: Headers | undefined
  const loop = await runMcpLoop(c, auth, chat, set, async (turnBody, n) => {
    const turn = await relayTurn(c, turnBody, n)
    headers = turn.headers
    return turn.answer
  })
  const answer = structuredClone(loop.turns[loop.turns.length - 1]!.answer)
  answer.usage = sumChatUsage(loop.turns)
  const choice = answer.choices?.[0]
  if (choice?.message?.tool_calls) {
    // The client cannot answer the gateway's own MCP calls: it sees only its own functions.
    const left = clientToolCalls(set, answer)
    if (left.length) choice.message.tool_calls = left
    else delete choice.message.tool_calls
  }
  if (loop.incomplete && choice) choice.finish_reason = 'length'
  const res = Response.json(answer)
  for (const [k, v] of headers ?? []) if (k.startsWith('x-ratelimit-')) res.headers.set(k, v)
  return res
}
