/**
 * Streaming with remote MCP tools: on /v1/responses the final model turn's text reaches the client
 * while the model is still writing it (the mock model holds the rest of its answer until the test
 * has read the first delta), and every turn is still its own billed line.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import worker from '../../index'
import { ledger } from '../../test/factories'
import { keyFor, MCP, MODEL, model, rows, setupLoop, START, toolCalls } from '../../test/mcp-loop-model'
import { SseDecoder } from '../../../shared/contract/sse'

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
