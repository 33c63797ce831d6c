/** Coze: bot id from the model, query and history, answers (answer messages only), streams at every split, errors inside a 200. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { channelType } from '../registry'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import { cozeAdapter, toCozeRequest } from './adapter'
import chat from './__fixtures__/chat.json?raw'
import stream from './__fixtures__/stream.sse?raw'

describe('Coze', () => {
  it('posts the bot chat with the personal access token, honouring a base URL', async () => {
    const req = await cozeAdapter.buildRequest(chatCall({ model: 'coze-7342866812345', stream: true }), channel({ type: 38, key: 'pat_x', baseUrl: 'https://api.coze.cn' }))
    expect(req.url).toBe('https://api.coze.cn/open_api/v2/chat')
    expect(req.headers.get('authorization')).toBe('Bearer pat_x')
    expect(await req.json()).toEqual({ bot_id: '7342866812345', user: 'gateway', query: 'hi', chat_history: [], stream: true })
  })

  it('sends the last user message as the query and the rest as history', () => {
    expect(
      toCozeRequest(
        {
          model: 'x',
          user: 'u9',
          messages: [
            { role: 'system', content: 'be kind' },
            { role: 'user', content: 'one' },
            { role: 'assistant', content: 'two' },
            { role: 'user', content: [{ type: 'text', text: 'three' }] },
          ],
        },
        '7342',
        false
      )
    ).toEqual({
      bot_id: '7342',
      user: 'u9',
      query: 'three',
      stream: false,
      chat_history: [
        { role: 'user', content: 'be kind', content_type: 'text' },
        { role: 'user', content: 'one', content_type: 'text' },
        { role: 'assistant', content: 'two', content_type: 'text' },
      ],
    })
  })

  it('keeps only the answer messages', async () => {
    const p = await cozeAdapter.parseResponse(chatCall({ model: 'coze-1' }), jsonResponse(chat))
    if (p.kind !== 'json') throw new Error('json')
    expect((p.body as any).choices[0].message).toEqual({ role: 'assistant', content: '今天上海晴，25°C。' })
    expect(p.usage).toBeUndefined()
    expect(p.text).toBe('今天上海晴，25°C。')
  })

  it('turns an error inside a 200 answer into an upstream failure', async () => {
    const body = '{"code":700012006,"msg":"access token invalid"}'
    await expect(cozeAdapter.parseResponse(chatCall(), jsonResponse(body))).rejects.toThrow(MalformedUpstreamError)
    expect(cozeAdapter.parseError(401, body)).toEqual({ message: 'access token invalid', code: '700012006' })
  })

  it.each(SPLITS)('streams answer pieces and ends on done (split %s)', (every) => {
    const t = cozeAdapter.createStream(chatCall({ model: 'coze-1', stream: true }))
    const chunks = stripVolatile(runStream(t, stream, every))
    expect(chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])).toEqual([
      [{ role: 'assistant', content: 'Hello' }, null],
      [{ content: ' there!' }, null],
      [{}, 'stop'],
    ])
    expect(t.text()).toBe('Hello there!')
    expect(t.usage()).toBeUndefined()
  })

  it('reports a stream error event', () => {
    const t = cozeAdapter.createStream(chatCall({ stream: true }))
    runStream(t, 'data:{"event":"error","error_information":{"err_code":4000,"err_msg":"bot not published"}}\n\n')
    expect(t.error!()).toEqual({ message: 'bot not published', code: '4000' })
    expect(channelType(38)?.adapter).toBe(cozeAdapter)
  })
})
