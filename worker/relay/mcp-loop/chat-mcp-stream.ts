/**
 * The chat completions adapter's answer pieces (chat-mcp.ts) and its streamed answer: with
 * `stream: true` the MCP tool loop runs while the client reads chat.completion.chunk SSE. Every
 * model turn is streamed from the channel (relay-turn.ts) and its text goes to the client as
 * content deltas as it arrives (so text a model writes before it calls a tool is shown too); the
 * gateway's MCP calls are never shown. At the end: the client's own function calls of the last
 * turn (one tool_calls delta), the finish chunk ("length" when the loop stopped at its bound), the
 * usage of every turn added up when `stream_options.include_usage` asked for it, then `[DONE]`. A
 * failure after the stream started ends it with an OpenAI `error` event.
 */
import type { Context } from 'hono'
import type { RelayAuth } from '../../access/token-auth'
import { toApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { dataFrame } from '../inbound/types'
import { type LoopTurn, runMcpLoop } from './mcp-loop'
import type { McpToolSet } from './mcp-tools'
import { relayTurn } from './relay-turn'

/** The usage of every turn, added up. */
export function sumChatUsage(turns: LoopTurn[]) {
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
  for (const { answer } of turns) {
    usage.prompt_tokens += Number(answer.usage?.prompt_tokens ?? 0) || 0
    usage.completion_tokens += Number(answer.usage?.completion_tokens ?? 0) || 0
  }
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
  return usage
}

/** The tool calls of an answer the client must answer itself: those not of an offered MCP tool. */
export function clientToolCalls(set: McpToolSet, answer: Record<string, any>): Record<string, any>[] {
  const calls = answer.choices?.[0]?.message?.tool_calls
  return Array.isArray(calls) ? calls.filter((t) => !set.offered.has(t?.function?.name)) : []
}

export function streamChatWithMcp(c: Context<HonoEnv>, auth: RelayAuth, chat: Record<string, unknown>, set: McpToolSet, includeUsage: boolean): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  const bytes = new TextEncoder()
  const write = (frame: string) => void writer.write(bytes.encode(frame)).catch(() => undefined)
  const head = { id: `chatcmpl-${crypto.randomUUID().replace(/-/g, '')}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: String(chat.model) }
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    write(dataFrame({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason }] }))
  const work = (async () => {
    chunk({ role: 'assistant', content: '' })
    try {
      const loop = await runMcpLoop(c, auth, chat, set, async (body, n) => (await relayTurn(c, body, n, (delta) => chunk({ content: delta }))).answer)
      const last = loop.turns[loop.turns.length - 1]!.answer
      const left = clientToolCalls(set, last)
      if (left.length) chunk({ tool_calls: left.map((t, index) => ({ index, id: t.id, type: 'function', function: t.function })) })
      chunk({}, loop.incomplete ? 'length' : left.length ? 'tool_calls' : (last.choices?.[0]?.finish_reason ?? 'stop'))
      if (includeUsage) write(dataFrame({ ...head, choices: [], usage: sumChatUsage(loop.turns) }))
      write('data: [DONE]\n\n')
    } catch (err) {
      const e = toApiError(err)
      const message = e.status >= 500 && !e.code ? 'The MCP tool loop failed.' : e.message
      write(dataFrame({ error: { message, type: e.type, code: e.code ?? null, param: null } }))
    } finally {
      await writer.close().catch(() => undefined)
    }
  })()
  c.executionCtx.waitUntil(work)
  return new Response(readable, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
}
