/**
 * The chat completions adapter of the MCP tool loop (mcp-loop.ts): a /v1/chat/completions request
 * whose tools include `{"type":"mcp","server_label":"<registered server>", …}` runs the loop and
 * answers the final turn's chat completion, with usage added up over every turn. `require_approval`
 * may be omitted here (chat has no approvals; only "never" is accepted). When the loop stopped at its
 * bound, finish_reason is "length"; the MCP calls an answer asks for are never shown to the client
 * (it could not answer them). Streaming is refused (400) with mcp tools.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { admit } from '../../access/admit'
import { validationError } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { runMcpLoop } from './mcp-loop'
import { type McpToolSpec, mcpToolSchema } from './mcp-tool-spec'
import { resolveMcpTools } from './mcp-tools'
import { ApiError } from '../../lib/errors'
import { relayTurn } from './relay-turn'

const chatTools = z.looseObject({
  tools: z.array(z.union([mcpToolSchema, z.looseObject({ type: z.literal('function') })], { error: 'tools must be function tools or mcp tools' })).max(512),
  stream: z.boolean().nullish(),
})

const refuseMcpStream = () =>
  new ApiError(400, 'stream: true is not supported together with mcp tools on /v1/chat/completions; send the request without stream.', {
    code: 'unsupported_mcp_stream',
    param: 'stream',
  })

/** The chat request has mcp tools: answered by the loop; otherwise undefined (the plain relay answers it). */
export async function chatWithMcp(c: Context<HonoEnv>): Promise<Response | undefined> {
  // A body that is not JSON is the plain relay's to refuse (c.req.json() caches what it read).
  const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || !Array.isArray(body.tools) || !body.tools.some((t) => (t as { type?: unknown })?.type === 'mcp')) return undefined
  const auth = await admit(c)
  const parsed = chatTools.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  if (parsed.data.stream) throw refuseMcpStream()
  const specs = parsed.data.tools.filter((t): t is McpToolSpec => t.type === 'mcp')
  const set = await resolveMcpTools(c, auth, specs, { approvalDefault: 'never' })
  const chat = { ...body, tools: parsed.data.tools.filter((t) => t.type !== 'mcp') }
  if ((chat.tools as unknown[]).length === 0) delete (chat as { tools?: unknown }).tools
  let headers: Headers | undefined
  const loop = await runMcpLoop(c, auth, chat, set, async (turnBody, n) => {
    const turn = await relayTurn(c, turnBody, n)
    headers = turn.headers
    return turn.answer
  })
  const answer = structuredClone(loop.turns[loop.turns.length - 1]!.answer)
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
  for (const { answer: a } of loop.turns) {
    usage.prompt_tokens += Number(a.usage?.prompt_tokens ?? 0) || 0
    usage.completion_tokens += Number(a.usage?.completion_tokens ?? 0) || 0
  }
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
  answer.usage = usage
  const choice = answer.choices?.[0]
  if (choice?.message?.tool_calls) {
    // The client cannot answer the gateway's own MCP calls: it sees only its own functions.
    const left = choice.message.tool_calls.filter((t: any) => !set.offered.has(t?.function?.name))
    if (left.length) choice.message.tool_calls = left
    else delete choice.message.tool_calls
  }
  if (loop.incomplete && choice) choice.finish_reason = 'length'
  const res = Response.json(answer)
  for (const [k, v] of headers ?? []) if (k.startsWith('x-ratelimit-')) res.headers.set(k, v)
  return res
}
