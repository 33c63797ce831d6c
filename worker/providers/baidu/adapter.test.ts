/** Baidu Qianfan: v2 bearer keys, the legacy access-token exchange and cache, native requests, answers, streams and errors. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { channelType } from '../registry'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import { baiduAdapter, createBaiduAdapter } from './adapter'
import { nativePath, toErnieRequest } from './native'
import { accessTokenSource } from './token'
import answer from './__fixtures__/ernie-answer.json?raw'
import fnAnswer from './__fixtures__/ernie-function.json?raw'
import stream from './__fixtures__/ernie-stream.sse?raw'

function tokenEndpoint() {
  const calls: Request[] = []
  const fetcher = async (req: Request) => {
    calls.push(req)
    const q = new URL(req.url).searchParams
    if (q.get('client_id') !== 'AK' || q.get('client_secret') !== 'SK') return jsonResponse('{"error":"invalid_client","error_description":"unknown client id"}', 401)
    return jsonResponse(JSON.stringify({ access_token: `24.token-${calls.length}`, expires_in: 2592000, scope: 'public' }))
  }
  return { calls, fetcher }
}

describe('Baidu v2 keys', () => {
  it('use the OpenAI-compatible v2 endpoint with the bearer key', async () => {
    const req = await baiduAdapter.buildRequest(chatCall({ model: 'ernie-4.0-8k-latest' }), channel({ type: 15, key: 'bce-v3/ALTAK-x/y' }))
    expect(req.url).toBe('https://qianfan.baidubce.com/v2/chat/completions')
    expect(req.headers.get('authorization')).toBe('Bearer bce-v3/ALTAK-x/y')
  })
})

describe('Baidu legacy APIKey|SecretKey', () => {
  it('exchanges the key for an access token once and reuses it until an hour before expiry', async () => {
    const { calls, fetcher } = tokenEndpoint()
    let now = 1_700_000_000
    const token = accessTokenSource(fetcher, () => now)
    expect(await token('https://aip.baidubce.com', { apiKey: 'AK', secretKey: 'SK' })).toBe('24.token-1')
    expect(calls[0]!.method).toBe('POST')
    expect(calls[0]!.url).toBe('https://aip.baidubce.com/oauth/2.0/token?grant_type=client_credentials&client_id=AK&client_secret=SK')
    now += 2592000 - 7200
    expect(await token('https://aip.baidubce.com', { apiKey: 'AK', secretKey: 'SK' })).toBe('24.token-1')
    now += 3601
    expect(await token('https://aip.baidubce.com', { apiKey: 'AK', secretKey: 'SK' })).toBe('24.token-2')
    await expect(token('https://aip.baidubce.com', { apiKey: 'AK', secretKey: 'bad' })).rejects.toThrow('Baidu access token request failed (401): unknown client id')
  })

  it('calls the model endpoint with the token, honouring a base URL', async () => {
    const adapter = createBaiduAdapter(tokenEndpoint().fetcher)
    const req = await adapter.buildRequest(chatCall({ model: 'ERNIE-4.0-8K', stream: true }), channel({ key: 'AK|SK' }))
    expect(req.url).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro?access_token=24.token-1')
    expect(await req.json()).toEqual({ messages: [{ role: 'user', content: 'hi' }], stream: true })
    const embed = await adapter.buildRequest(
      chatCall({ model: 'Embedding-V1', json: { model: 'Embedding-V1', input: 'a' } }, 'embeddings'),
      channel({ key: 'AK|SK', baseUrl: 'http://127.0.0.1:3999/baidu' })
    )
    expect(embed.url).toBe('http://127.0.0.1:3999/baidu/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1?access_token=24.token-2')
    expect(await embed.json()).toEqual({ input: ['a'] })
  })

  it('maps endpoints, system, functions and settings', () => {
    expect(nativePath('chat', 'ERNIE-Speed-8K')).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie_speed')
    expect(nativePath('chat', 'my-endpoint')).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/my-endpoint')
    expect(
      toErnieRequest(
        {
          model: 'm',
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'weather?' },
            { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'c', name: 'get_weather', content: 'sunny' },
          ],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
          temperature: 0,
          top_p: 0.5,
          max_tokens: 100,
          stop: 'x',
          user: 'u1',
        },
        false
      )
    ).toEqual({
      system: 'be brief',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{}' } },
        { role: 'function', name: 'get_weather', content: 'sunny' },
      ],
      stream: false,
      temperature: 0.01,
      top_p: 0.5,
      max_output_tokens: 100,
      stop: ['x'],
      user_id: 'u1',
      functions: [{ name: 'get_weather', description: '', parameters: { type: 'object' } }],
    })
  })

  it('parses ERNIE answers and function calls', async () => {
    const p = await baiduAdapter.parseResponse(chatCall({ model: 'ernie-3.5-8k' }), jsonResponse(answer))
    if (p.kind !== 'json') throw new Error('json')
    expect(p.usage).toEqual({ promptTokens: 3, completionTokens: 9 })
    expect((p.body as any).choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: '您好，我是文心一言。' }, finish_reason: 'stop' })
    const f = await baiduAdapter.parseResponse(chatCall({ model: 'ernie-3.5-8k' }), jsonResponse(fnAnswer))
    if (f.kind !== 'json') throw new Error('json')
    expect((f.body as any).choices[0].finish_reason).toBe('tool_calls')
    expect((f.body as any).choices[0].message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"city":"上海"}' })
  })

  it('turns an error inside a 200 answer into an upstream failure', async () => {
    const body = '{"error_code":110,"error_msg":"Access token invalid or no longer valid"}'
    await expect(baiduAdapter.parseResponse(chatCall(), jsonResponse(body))).rejects.toThrow(MalformedUpstreamError)
    expect(baiduAdapter.parseError(200, body)).toEqual({ message: 'Access token invalid or no longer valid', code: '110' })
  })

  it.each(SPLITS)('converts the ERNIE stream (split %s)', (every) => {
    const t = baiduAdapter.createStream(chatCall({ model: 'ernie-speed-128k', stream: true }))
    const chunks = stripVolatile(runStream(t, stream, every))
    expect(chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])).toEqual([
      [{ role: 'assistant', content: '你好，' }, null],
      [{ content: '有什么可以帮你？' }, null],
      [{}, 'stop'],
    ])
    expect(t.usage()).toEqual({ promptTokens: 2, completionTokens: 11 })
    expect(t.text()).toBe('你好，有什么可以帮你？')
  })

  it('reports a JSON failure answered to a stream request', async () => {
    const res = baiduAdapter.toSseStream!(jsonResponse('{"error_code":18,"error_msg":"Open api qps request limit reached"}'))
    const t = baiduAdapter.createStream(chatCall({ stream: true }))
    expect(runStream(t, await res.text())).toEqual([])
    expect(t.error!()).toEqual({ message: 'Open api qps request limit reached', code: '18' })
  })

  it('passes the v2 OpenAI stream through', () => {
    const t = baiduAdapter.createStream(chatCall({ stream: true }))
    const out = runStream(t, 'data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n')
    expect(out).toHaveLength(1)
    expect(t.text()).toBe('hi')
    expect(channelType(15)?.adapter).toBe(baiduAdapter)
  })
})
