/** Hunyuan: the TC3 vector, request headers and PascalCase body, answers, 200-with-error, stream at every split. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, decodeSse, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import { hunyuanAdapter, hunyuanKeyProblem } from './adapter'
import { keyProblemMessage } from '../../../shared/contract/key-format'
import { toHunyuanRequest } from './request'
import { tc3Authorization } from './sign'
import chat from './__fixtures__/chat.json?raw'
import errorBody from './__fixtures__/error.json?raw'
import stream from './__fixtures__/stream.sse?raw'

describe('TC3-HMAC-SHA256', () => {
  it('matches the reference vector', async () => {
    const auth = await tc3Authorization({
      secretId: 'AKIDtest',
      secretKey: 'SKtest',
      host: 'hunyuan.tencentcloudapi.com',
      action: 'ChatCompletions',
      body: '{"Model":"hunyuan-lite","Messages":[{"Role":"user","Content":"hi"}],"Stream":false}',
      timestamp: 1700000000,
    })
    expect(auth).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDtest/2023-11-14/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=19e38605e051f04bee414a0f1cf208ad986119c5fa574f43cdde6c996ac659e0'
    )
  })
})

describe('Hunyuan request', () => {
  it('posts the signed action to the API host with the body the signature covers', async () => {
    const req = await hunyuanAdapter.buildRequest(
      chatCall({ model: 'hunyuan-lite', json: { model: 'hunyuan-lite', messages: [{ role: 'user', content: 'hi' }] } }),
      channel({ type: 40, key: 'AKIDtest|SKtest', other: 'ap-guangzhou' })
    )
    expect(req.url).toBe('https://hunyuan.tencentcloudapi.com/')
    expect(req.headers.get('x-tc-action')).toBe('ChatCompletions')
    expect(req.headers.get('x-tc-version')).toBe('2023-09-01')
    expect(req.headers.get('x-tc-region')).toBe('ap-guangzhou')
    expect(req.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = await req.text()
    expect(JSON.parse(body)).toEqual({ Model: 'hunyuan-lite', Messages: [{ Role: 'user', Content: 'hi' }], Stream: false })
    const ts = Number(req.headers.get('x-tc-timestamp'))
    expect(req.headers.get('authorization')).toBe(
      await tc3Authorization({ secretId: 'AKIDtest', secretKey: 'SKtest', host: 'hunyuan.tencentcloudapi.com', action: 'ChatCompletions', body, timestamp: ts })
    )
  })

  it('signs the host of a base URL (mock or private endpoint)', async () => {
    const req = await hunyuanAdapter.buildRequest(chatCall({ stream: true }), channel({ key: 'id|key', baseUrl: 'http://127.0.0.1:3999/hunyuan' }))
    expect(req.url).toBe('http://127.0.0.1:3999/hunyuan/')
    expect(req.headers.get('authorization')).toContain('Credential=id/')
    expect(JSON.parse(await req.text()).Stream).toBe(true)
  })

  it('maps roles, images, tools and settings to PascalCase', () => {
    const body = toHunyuanRequest(
      {
        model: 'hunyuan-vision',
        messages: [
          { role: 'developer', content: 'be brief' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is it' },
              { type: 'image_url', image_url: { url: 'https://x/a.png' } },
            ],
          },
          { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        temperature: 0.5,
        top_p: 0.8,
        stop: ['x'],
      },
      'hunyuan-vision',
      false
    )
    const tool = { Type: 'function', Function: { Name: 'f', Description: '', Parameters: '{"type":"object","properties":{}}' } }
    expect(body).toEqual({
      Model: 'hunyuan-vision',
      Stream: false,
      Messages: [
        { Role: 'system', Content: 'be brief' },
        {
          Role: 'user',
          Contents: [
            { Type: 'text', Text: 'what is it' },
            { Type: 'image_url', ImageUrl: { Url: 'https://x/a.png' } },
          ],
        },
        { Role: 'assistant', Content: '', ToolCalls: [{ Id: 'c1', Type: 'function', Function: { Name: 'f', Arguments: '{}' } }] },
        { Role: 'tool', Content: 'ok', ToolCallId: 'c1' },
      ],
      Temperature: 0.5,
      TopP: 0.8,
      Stop: ['x'],
      Tools: [tool],
      ToolChoice: 'custom',
      CustomTool: tool,
    })
  })

  it('checks the key format', () => {
    expect(hunyuanKeyProblem('AKID|SK')).toBeUndefined()
    expect(hunyuanKeyProblem('AKID')).toBe('Hunyuan key is SecretId|SecretKey')
    expect(keyProblemMessage(40, 'a|b|c')).toBe('Hunyuan key is SecretId|SecretKey')
  })
})

describe('Hunyuan answers', () => {
  it('maps content, tool calls and cached usage', async () => {
    const parsed = await hunyuanAdapter.parseResponse(chatCall({ model: 'hunyuan-turbo' }), jsonResponse(chat))
    if (parsed.kind !== 'json') throw new Error('expected json')
    expect(parsed.usage).toEqual({ promptTokens: 58, completionTokens: 21, extra: { cached_tokens: 32 } })
    expect((parsed.body as any).choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: '我来查一下。', tool_calls: [{ id: 'call_hy1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"深圳"}' } }] },
      finish_reason: 'tool_calls',
    })
    expect((parsed.body as any).model).toBe('hunyuan-turbo')
  })

  it('turns an error inside a 200 answer into an upstream failure', async () => {
    await expect(hunyuanAdapter.parseResponse(chatCall(), jsonResponse(errorBody))).rejects.toThrow(MalformedUpstreamError)
    await expect(hunyuanAdapter.parseResponse(chatCall(), jsonResponse(errorBody))).rejects.toThrow(/AuthFailure\.SignatureFailure/)
    expect(hunyuanAdapter.parseError(400, errorBody)).toEqual({
      message: 'The provided credentials could not be validated. Please check your signature is correct.',
      code: 'AuthFailure.SignatureFailure',
    })
  })
})

describe('Hunyuan stream', () => {
  it.each(SPLITS)('converts PascalCase chunks with cumulative usage (split %s)', (every) => {
    const t = hunyuanAdapter.createStream(chatCall({ model: 'hunyuan-turbo', stream: true }))
    const chunks = stripVolatile(runStream(t, stream, every))
    expect(chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])).toEqual([
      [{ role: 'assistant', content: '你好' }, null],
      [{ role: 'assistant', content: '，世界' }, null],
      [{ role: 'assistant', tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"北京"}' } }] }, null],
      [{ role: 'assistant', content: '' }, 'tool_calls'],
    ])
    expect(t.usage()).toEqual({ promptTokens: 5, completionTokens: 12 })
    expect(t.text()).toBe('你好，世界get_weather{"city":"北京"}')
  })

  it('passes a JSON failure answered to a stream request on as a stream error', async () => {
    const res = hunyuanAdapter.toSseStream!(jsonResponse(errorBody))
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const t = hunyuanAdapter.createStream(chatCall({ stream: true }))
    expect(decodeSse(await res.text()).flatMap((e) => t.onEvent(e))).toEqual([])
    expect(t.error!()).toEqual({ message: 'The provided credentials could not be validated. Please check your signature is correct.', code: 'AuthFailure.SignatureFailure' })
    const sse = new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } })
    expect(hunyuanAdapter.toSseStream!(sse)).toBe(sse)
  })
})
