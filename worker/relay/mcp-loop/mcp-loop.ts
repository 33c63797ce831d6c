/**
 * The remote MCP tool loop, shared by the Responses and chat adapters: the model gets the client's
 * own function tools plus the offered MCP tools; when its answer calls MCP tools the gateway runs
 * them (each billed as one `/mcp` call, mcp-call.ts), appends the results and asks the model again,
 * until an answer calls no MCP tool — at most MAX_MCP_TURNS model turns. Each turn is a normal relay
 * request (relay-turn.ts), so it is held, routed, retried and settled as its own line. An answer
 * that also calls a client function stops the loop after its MCP calls ran: the client answers it.
 */
import type { Context } from 'hono'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { RelayAuth } from '../../access/token-auth'
import type { HonoEnv } from '../../env'
import { runGatewayTool } from '../../mcp/mcp-call'
import { functionTools, type McpToolSet } from './mcp-tools'

/** At most this many model turns per request. */
export const MAX_MCP_TURNS = 8

export interface McpCallRecord {
  /** The model's tool call id. */
  callId: string
  label: string
  /** The tool's own name on its server. */
  name: string
  arguments: string
  output: string | null
  error: string | null
}

export interface LoopTurn {
  answer: Record<string, any>
  /** The MCP calls this turn asked for, run (or, past the bound, not run and marked so). */
  calls: McpCallRecord[]
}

export interface LoopResult {
  turns: LoopTurn[]
  /** The last turn still called MCP tools when the bound was reached. */
  incomplete: boolean
  /** The chat messages the loop added after the client's own (assistant tool calls and tool results). */
  added: Record<string, unknown>[]
}

/** A model turn: the chat body in, the chat completion out (relay-turn.ts). */
export type TurnRunner = (body: Record<string, unknown>, turn: number) => Promise<Record<string, any>>

/** The text of a tool result, as the model and the client read it. */
export function resultText(result: CallToolResult): string {
  return result.content.map((p) => (p.type === 'text' ? p.text : JSON.stringify(p))).join('\n')
}

function parseArgs(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw || '{}')
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined
  } catch {
    return undefined
  }
}

/** The record of a call the model asked for, not run yet. */
function pending(set: McpToolSet, call: Record<string, any>): McpCallRecord {
  const tool = set.offered.get(call.function.name)!
  return { callId: String(call.id), label: tool.label, name: tool.target.tool.name, arguments: String(call.function.arguments ?? ''), output: null, error: null }
}

async function runCall(c: Context<HonoEnv>, auth: RelayAuth, set: McpToolSet, call: Record<string, any>, record: McpCallRecord, key: string): Promise<void> {
  const args = parseArgs(record.arguments)
  if (!args) {
    record.error = 'The arguments are not a JSON object.'
    return
  }
  const result = await runGatewayTool(c, auth, set.offered.get(call.function.name)!.target, args, key)
  if (result.isError) record.error = resultText(result)
  else record.output = resultText(result)
}

/** Progress of the loop, for a streamed answer: a turn answered (its calls not run yet), a call finished. */
export interface LoopHooks {
  onTurn?(turn: LoopTurn): void
  onCall?(record: McpCallRecord): void
}

export async function runMcpLoop(
  c: Context<HonoEnv>,
  auth: RelayAuth,
  chat: Record<string, unknown>,
  set: McpToolSet,
  turn: TurnRunner,
  hooks: LoopHooks = {}
): Promise<LoopResult> {
  const tools = [...((chat.tools as unknown[] | undefined) ?? []), ...functionTools(set)]
  const messages = [...(chat.messages as Record<string, unknown>[])]
  const added: Record<string, unknown>[] = []
  const turns: LoopTurn[] = []
  for (let n = 0; n < MAX_MCP_TURNS; n++) {
    const answer = await turn({ ...chat, messages, ...(tools.length ? { tools } : {}) }, n)
    const msg = answer.choices?.[0]?.message ?? {}
    const asked: Record<string, any>[] = Array.isArray(msg.tool_calls) ? msg.tool_calls : []
    const mcp = asked.filter((t) => set.offered.has(t?.function?.name))
    const current: LoopTurn = { answer, calls: mcp.map((t) => pending(set, t)) }
    turns.push(current)
    hooks.onTurn?.(current)
    if (mcp.length === 0) return { turns, incomplete: false, added }
    if (n === MAX_MCP_TURNS - 1) {
      for (const record of current.calls) {
        record.error = `Not run: the gateway's limit of ${MAX_MCP_TURNS} model turns per request was reached.`
        hooks.onCall?.(record)
      }
      return { turns, incomplete: true, added }
    }
    for (const [i, t] of mcp.entries()) {
      await runCall(c, auth, set, t, current.calls[i]!, `t${n}.${i}`)
      hooks.onCall?.(current.calls[i]!)
    }
    const assistant = { role: 'assistant', content: typeof msg.content === 'string' && msg.content ? msg.content : null, tool_calls: asked }
    const results = current.calls.map((r) => ({ role: 'tool', tool_call_id: r.callId, content: r.error ?? r.output ?? '' }))
    messages.push(assistant, ...results)
    added.push(assistant, ...results)
    // A call of the client's own function: the client answers it, with the MCP results already in.
    if (mcp.length < asked.length) return { turns, incomplete: false, added }
  }
  return { turns, incomplete: true, added }
}
