/**
 * Streaming with remote MCP tools: on /v1/responses the final model turn's text reaches the client
 * while the model is still writing it (the mock model holds the rest of its answer until the test
 * has read the first delta), and every turn is still its own billed line; on /v1/chat/completions
 * `stream: true` runs the loop and streams the final answer as chat.completion.chunk SSE, with the
 * turns' usage when asked for and `finish_reason` "length" at the loop's bound.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import worker from '../../index'
import { ledger, send } from '../../test/factories'
import { FOREVER, keyFor, MCP, MODEL, model, rows, setupLoop, START, toolCalls } from '../../test/mcp-loop-model'
import { SseDecoder } from '../../../shared/contract/sse'
import { decodeSse } from '../../test/stream-harness'
import { MAX_MCP_TURNS } from './mcp-loop'

beforeEach(setupLoop)
afterEach(() => model.mock?.restore())

/** POST `json` to `path` and read the answer's SSE events one by one. */
async function openStream(path: string, key: string, json: unknown) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(`http://gateway.test${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(json) }),
    env,
    ctx
  )
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  const decoder = new SseDecoder()
  const queue: string[] = []
  let ended = false
  /** The next event's data (undefined at the end). */
  const next = async (): Promise<string | undefined> => {
    while (queue.length === 0 && !ended) {
      const { done, value } = await reader.read()
      if (done) {
        ended = true
        queue.push(...decoder.end().map((e) => e.data))
      } else queue.push(...decoder.push(value).map((e) => e.data))
    }
    return queue.shift()
  }
  const finish = async () => {
    const rest: string[] = []
    for (let d = await next(); d !== undefined; d = await next()) rest.push(d)
    await waitOnExecutionContext(ctx)
    return rest
  }
  return { next, finish, headers: res.headers }
}

describe('the final turn streams on /v1/responses with mcp tools', () => {
  it('sends the first text delta before the model has finished, then completes with every turn billed', async () => {
    const { user, key } = await keyFor()
    let release!: () => void
    model.hold = new Promise<void>((resolve) => {
      release = resolve
    })
    const stream = await openStream('/v1/responses', key, { model: MODEL, input: 'What is 2 + 3?', stream: true, tools: [MCP] })
    const seen: any[] = []
    for (let d = await stream.next(); d !== undefined; d = await stream.next()) {
      seen.push(JSON.parse(d))
      if (seen.at(-1).type === 'response.output_text.delta') break
    }
    // The model is still holding "5.": the client already has the call's result and the first words.
    expect(seen.at(-1)).toMatchObject({ type: 'response.output_text.delta', delta: 'The sum is ' })
    expect(seen.map((e) => e.type)).toContain('response.mcp_call.completed')
    expect(seen.map((e) => e.type)).not.toContain('response.output_text.done')
    release()
    const rest = (await stream.finish()).map((d) => JSON.parse(d))
    expect(rest.map((e) => e.type)).toEqual([
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(rest[0].delta).toBe('5.')
    expect(rest.at(-1).response.output[2].content[0].text).toBe('The sum is 5.')
    expect(toolCalls()).toHaveLength(1)
    const logged = (await rows(user.id)).results
    expect(logged.filter((r) => r.model_name === MODEL)).toHaveLength(2)
    expect(logged.filter((r) => r.model_name === 'mcp/calc/add')).toHaveLength(1)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(3)
    expect(l.quota).toBe(START - l.loggedQuota)
  })
})

const CHAT_MCP = { type: 'mcp', server_label: 'calc', allowed_tools: ['add'] }
const ask = (key: string, extra: Record<string, unknown> = {}) =>
  send('/v1/chat/completions', { key, json: { model: MODEL, messages: [{ role: 'user', content: 'What is 2 + 3?' }], stream: true, tools: [CHAT_MCP], ...extra } })

describe('stream: true on /v1/chat/completions with mcp tools', () => {
  it.each([
    ['with', true],
    ['without', false],
  ])('runs the loop and streams the final answer as chunks, %s the usage chunk', async (_name, includeUsage) => {
    const { user, key } = await keyFor()
    const res = await ask(key, includeUsage ? { stream_options: { include_usage: true } } : {})
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const frames = decodeSse(res.text).map((e) => e.data)
    expect(frames.at(-1)).toBe('[DONE]')
    const chunks = frames.slice(0, -1).map((d) => JSON.parse(d))
    expect(chunks.every((ch) => ch.object === 'chat.completion.chunk' && ch.id === chunks[0].id && ch.model === MODEL)).toBe(true)
    const deltas = chunks.filter((ch) => ch.choices.length).map((ch) => [ch.choices[0].delta, ch.choices[0].finish_reason])
    expect(deltas).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: 'The sum is ' }, null],
      [{ content: '5.' }, null],
      [{}, 'stop'],
    ])
    const usage = chunks.filter((ch) => ch.usage)
    expect(usage).toEqual(includeUsage ? [expect.objectContaining({ choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })] : [])
    // The gateway's MCP call ran once and is never shown; both turns were streamed from the channel.
    expect(res.text).not.toContain('tool_calls')
    expect(toolCalls()).toHaveLength(1)
    expect(model.bodies.map((b) => b.stream)).toEqual([true, true])
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(3)
    expect(l.quota).toBe(START - l.loggedQuota)
  })

  it('ends with finish_reason "length" when the loop reaches its bound', async () => {
    const { user, key } = await keyFor()
    const res = await ask(key, { model: FOREVER })
    expect(res.status).toBe(200)
    const chunks = decodeSse(res.text)
      .map((e) => e.data)
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d))
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'length' })
    expect(model.bodies).toHaveLength(MAX_MCP_TURNS)
    expect(toolCalls()).toHaveLength(MAX_MCP_TURNS - 1)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(MAX_MCP_TURNS + MAX_MCP_TURNS - 1)
    expect(l.quota).toBe(START - l.loggedQuota)
  })

  it('refuses an unregistered server with a plain 400 before any stream starts', async () => {
    const { key } = await keyFor()
    const res = await ask(key, { tools: [{ type: 'mcp', server_label: 'nope' }] })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_mcp_tool' })
    expect(model.bodies).toHaveLength(0)
  })
})
