/** primeStream: what arrived together leaves together, and the answer's text is read only when usage must be counted. */
import { describe, expect, it, vi } from 'vitest'
import { OpenAIStream } from '../providers/openai/adapter'
import { chatCall } from '../test/stream-harness'
import { primeStream } from './stream-relay'

const chunk = (content: string) => `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`
const usageChunk = 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}\n\n'

/** An upstream SSE body that sends each string of `reads` as one chunk. */
function upstream(reads: string[]): Response {
  const bytes = reads.map((r) => new TextEncoder().encode(r))
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = bytes.shift()
        if (next) controller.enqueue(next)
        else controller.close()
      },
    })
  )
}

async function chunksOf(res: Response): Promise<string[]> {
  const out: string[] = []
  const decoder = new TextDecoder()
  for await (const piece of res.body!) out.push(decoder.decode(piece))
  return out
}

describe('primeStream', () => {
  it('sends the events of one upstream read as one chunk, in order, then the trailer', async () => {
    const transformer = new OpenAIStream(chatCall({ stream: true }))
    const primed = await primeStream({
      upstream: upstream([chunk('a'), chunk('b') + chunk('c') + chunk('d'), usageChunk + 'data: [DONE]\n\n']),
      transformer,
      includeUsage: false,
      startedAt: Date.now(),
      resolveUsage: () => Promise.reject(new Error('usage was reported')),
    })
    if (!primed.ok) throw new Error(primed.error.message)
    const chunks = await chunksOf(primed.stream.response)
    expect(chunks).toEqual([chunk('a'), chunk('b') + chunk('c') + chunk('d'), 'data: [DONE]\n\n'])
  })

  it('reads the generated text only when the upstream reported no usage', async () => {
    const reported = new OpenAIStream(chatCall({ stream: true }))
    const readText = vi.spyOn(reported, 'text')
    const primed = await primeStream({
      upstream: upstream([chunk('a'), usageChunk]),
      transformer: reported,
      includeUsage: true,
      startedAt: Date.now(),
      resolveUsage: () => Promise.reject(new Error('usage was reported')),
    })
    if (!primed.ok) throw new Error(primed.error.message)
    await chunksOf(primed.stream.response)
    const end = await primed.stream.done
    expect(end).toMatchObject({ kind: 'complete', usage: { promptTokens: 4, completionTokens: 2 } })
    expect(readText).not.toHaveBeenCalled()
    expect(end.text()).toBe('a')

    const silent = new OpenAIStream(chatCall({ stream: true }))
    const counted = await primeStream({
      upstream: upstream([chunk('hello'), 'data: [DONE]\n\n']),
      transformer: silent,
      includeUsage: false,
      startedAt: Date.now(),
      resolveUsage: async (text) => ({ promptTokens: 1, completionTokens: text.length }),
    })
    if (!counted.ok) throw new Error(counted.error.message)
    await chunksOf(counted.stream.response)
    expect((await counted.stream.done).usage).toEqual({ promptTokens: 1, completionTokens: 5 })
  })
})
