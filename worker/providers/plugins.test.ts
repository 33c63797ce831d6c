/**
 * Channel plugin parameters applied: Custom channels' per-operation paths and "disable" (through
 * the relay), Ollama's Cloudflare Access headers (through callUpstream) and Azure Speech's voice
 * map (SSML); the same plugin on a type that does not apply it changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, send, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { channel, chatCall } from '../test/stream-harness'
import { routingSnapshot } from '../channels/routing-table'
import type { RoutedChannel } from '../channels/types'
import { callUpstream } from '../channels/upstream'
import { azureSpeechAdapter } from './azure-speech/adapter'
import { channelType } from './registry'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
})
afterEach(() => upstream.restore())

async function withPlugin(id: number, plugin: unknown) {
  await env.DB.prepare('UPDATE channels SET plugin = ? WHERE id = ?').bind(JSON.stringify(plugin), id).run()
  await routingSnapshot.invalidate(env)
}
const chat = async () => {
  const user = await createUser({ quota: 10_000_000 })
  const { key } = await createToken(user.id)
  return send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
}

describe('customize (Custom channels)', () => {
  it('sends the operation to the path the plugin sets', async () => {
    const id = await createChannel({ key: 'custom', type: 8 })
    await withPlugin(id, { customize: { '1': '/relay/v2/chat/completions', '3': '' } })
    expect((await chat()).status).toBe(200)
    expect(upstream.calls.map((c) => new URL(c.url).pathname)).toEqual(['/relay/v2/chat/completions'])
  })

  it('skips a channel whose plugin disables the operation and uses the next one', async () => {
    const off = await createChannel({ key: 'off', type: 8, priority: 10 })
    await createChannel({ key: 'on', type: 8 })
    await withPlugin(off, { customize: { '1': 'disable' } })
    expect((await chat()).status).toBe(200)
    expect(upstream.count('off')).toBe(0)
    expect(upstream.count('on')).toBe(1)
  })

  it('is ignored on a type that does not apply it (OpenAI)', async () => {
    const id = await createChannel({ key: 'openai', type: 1 })
    await withPlugin(id, { customize: { '1': 'disable' } })
    expect((await chat()).status).toBe(200)
    expect(new URL(upstream.calls[0]!.url).pathname).toBe('/v1/chat/completions')
  })

  it('leaves the other operations on their default paths', async () => {
    const req = await channelType(8)!.adapter.buildRequest(
      chatCall({ model: 'e', json: { model: 'e', input: 'x' } }, 'embeddings'),
      channel({ type: 8, baseUrl: 'https://relay.test', plugin: { customize: { '1': '/x' } } })
    )
    expect(req.url).toBe('https://relay.test/v1/embeddings')
  })
})

describe('headers (Ollama behind Cloudflare Zero Trust)', () => {
  const routed = (type: number): RoutedChannel => ({
    ...channel({ type, baseUrl: 'https://ollama.test', plugin: { headers: { 'CF-Access-Client-Id': 'id.access', 'CF-Access-Client-Secret': 'sec' } } }),
    priority: 0,
    weight: 1,
    onlyChat: false,
    autoBan: true,
    modelMapping: {},
    headers: {},
    customParameter: {},
    models: [],
  })
  const sent = async (type: number) => {
    let seen: Request | undefined
    const network = { fetch: async (req: Request) => ((seen = req), new Response('{}', { headers: { 'content-type': 'application/json' } })) } as unknown as Fetcher
    await callUpstream(channelType(type)!.adapter, chatCall(), routed(type), 1000, network)
    return seen!.headers
  }

  it('adds the access headers to Ollama calls', async () => {
    const headers = await sent(39)
    expect(headers.get('cf-access-client-id')).toBe('id.access')
    expect(headers.get('cf-access-client-secret')).toBe('sec')
  })

  it('adds nothing on another type', async () => {
    expect((await sent(1)).get('cf-access-client-id')).toBeNull()
  })
})

describe('voice (Azure Speech)', () => {
  const ssml = async (voice: string, type = 24) => {
    const call = chatCall({ model: 'tts-1', json: { model: 'tts-1', input: 'hi', voice } }, 'audio.speech')
    const req = await azureSpeechAdapter.buildRequest(call, channel({ type, other: 'eastus', plugin: { voice: { alloy: 'zh-CN-YunxiNeural|boy', echo: 'zh-CN-YunyangNeural' } } }))
    return req.text()
  }

  it('speaks a mapped voice, with its role', async () => {
    expect(await ssml('alloy')).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="zh-CN"><voice name="zh-CN-YunxiNeural"><mstts:express-as role="boy">hi</mstts:express-as></voice></speak>'
    )
    expect(await ssml('echo')).toContain('<voice name="zh-CN-YunyangNeural">hi</voice>')
  })

  it('keeps the built-in voice for unmapped names', async () => {
    expect(await ssml('nova')).toContain('<voice name="en-US-JennyMultilingualNeural">')
  })
})
