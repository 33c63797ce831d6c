/** callUpstream: a channel whose adapter cannot build the request fails like an upstream; a client error stays one. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../lib/errors'
import { chatCall } from '../test/stream-harness'
import { openAIBaseAdapter } from '../providers/openai/adapter'
import type { ProviderAdapter } from '../providers/types'
import type { RoutedChannel } from './types'
import { callUpstream } from './upstream'
import { env } from 'cloudflare:workers'
import { ProxyError } from '../lib/proxy/tunnel'
import { channelNetwork } from './network'
import { decideFailure } from './retry-policy'
import { buildRoutingTable } from './routing-table'

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

describe('callUpstream through a channel proxy', () => {
  it('reports a failing proxy as a retryable channel failure with its reason', async () => {
    const proxyNet = { fetch: () => Promise.reject(new ProxyError('proxy refused CONNECT: 407 Proxy Authentication Required')) }
    const out = await callUpstream(openAIBaseAdapter({ defaultBaseUrl: '' }), chatCall(), routed, 1000, proxyNet)
    expect(out).toEqual({ ok: false, status: 0, error: { message: 'proxy refused CONNECT: 407 Proxy Authentication Required', type: 'proxy_error' } })
    if (out.ok) return
    expect(decideFailure(out, [])).toMatchObject({ retry: true, freeze: true })
  })

  it('the relay, tests and balance queries take the channel proxy from the routing table', async () => {
    const ch = buildRoutingTable([{ id: 7, type: 8, name: 'p', key: 'k', models: 'm', group: 'default', proxy: 'socks5://127.0.0.1:1080' }]).channels[7]!
    expect(ch.proxy).toBe('socks5://127.0.0.1:1080')
    const refused = channelNetwork(env, { proxy: 'http://169.254.169.254:80' })
    await expect(refused!.fetch('https://api.openai.com/v1/models')).rejects.toThrow("the channel's proxy must not point at a link-local address")
    expect(channelNetwork(env, { proxy: '' })).toBeUndefined()
  })
})
