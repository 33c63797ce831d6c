/** callUpstream: a channel whose adapter cannot build the request fails like an upstream; a client error stays one. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../lib/errors'
import { chatCall } from '../test/stream-harness'
import { openAIBaseAdapter } from '../providers/openai/adapter'
import type { ProviderAdapter } from '../providers/types'
import type { RoutedChannel } from './routing-table'
import { callUpstream } from './upstream'

const routed: RoutedChannel = {
  id: 1,
  type: 1,
  name: 'c',
  key: 'k',
  baseUrl: 'https://upstream.test',
  other: '',
  priority: 0,
  weight: 1,
  onlyChat: false,
  autoBan: true,
  modelMapping: {},
  headers: {},
  customParameter: {},
  models: [],
}
const failing = (err: Error): ProviderAdapter => ({ ...openAIBaseAdapter({ defaultBaseUrl: '' }), buildRequest: () => Promise.reject(err) })

describe('callUpstream request building', () => {
  it('reports an unusable channel key or token exchange as a retryable channel failure', async () => {
    const out = await callUpstream(failing(new Error('Vertex AI token request failed (400): invalid_grant')), chatCall(), routed, 1000)
    expect(out).toEqual({
      ok: false,
      status: 0,
      error: { message: 'channel could not build the request: Vertex AI token request failed (400): invalid_grant', type: 'channel_error' },
    })
  })

  it('lets a client error through', async () => {
    await expect(callUpstream(failing(new ApiError(400, 'Bedrock accepts images only as base64 data: URLs')), chatCall(), routed, 1000)).rejects.toBeInstanceOf(ApiError)
  })
})

describe('callUpstream through a network binding (npm start: env.DIRECT_NETWORK)', () => {
  const adapter = openAIBaseAdapter({ defaultBaseUrl: '' })
  /** A Fetcher that records what it was asked and answers with `answer`, or never when it is undefined. */
  function network(answer?: () => Response) {
    const seen: { url: string; signal?: AbortSignal | null }[] = []
    const fetcher = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ url: (input as Request).url, signal: init?.signal })
        if (answer) return Promise.resolve(answer())
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))
      },
    } as unknown as Fetcher
    return { fetcher, seen }
  }

  it('sends the supplier call through the binding', async () => {
    const { fetcher, seen } = network(() => Response.json({ ok: true }))
    const out = await callUpstream(adapter, chatCall(), routed, 1000, fetcher)
    expect(out.ok).toBe(true)
    expect(seen.map((s) => s.url)).toEqual(['https://upstream.test/v1/chat/completions'])
  })

  it('keeps the header timeout on the binding', async () => {
    const { fetcher, seen } = network()
    const out = await callUpstream(adapter, chatCall(), routed, 50, fetcher)
    expect(out).toMatchObject({ ok: false, status: -1, error: { type: 'timeout' } })
    expect(seen[0]!.signal?.aborted).toBe(true)
  })
})
