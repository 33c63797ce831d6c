/** Xunfei Spark HTTP: one-hub's three-part key as APIKey:APISecret, the X1 path, base URL and stream pass-through. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, runStream } from '../../test/stream-harness'
import { channelType } from '../registry'
import { sparkBearer, xunfeiAdapter } from './adapter'

describe('Xunfei Spark', () => {
  it('turns APPID|APISecret|APIKey into APIKey:APISecret and keeps an APIPassword', () => {
    expect(sparkBearer('app1|secretS|keyK')).toBe('keyK:secretS')
    expect(sparkBearer('pwdXYZ')).toBe('pwdXYZ')
  })

  it('posts v1 chat, and v2 for X1, honouring a base URL', async () => {
    const req = await xunfeiAdapter.buildRequest(chatCall({ model: 'generalv3.5' }), channel({ type: 18, key: 'a|s|k' }))
    expect(req.url).toBe('https://spark-api-open.xf-yun.com/v1/chat/completions')
    expect(req.headers.get('authorization')).toBe('Bearer k:s')
    expect((await xunfeiAdapter.buildRequest(chatCall({ model: 'x1' }), channel({ key: 'p' }))).url).toBe('https://spark-api-open.xf-yun.com/v2/chat/completions')
    expect((await xunfeiAdapter.buildRequest(chatCall({ model: 'lite' }), channel({ key: 'p', baseUrl: 'http://127.0.0.1:3999/spark' }))).url).toBe(
      'http://127.0.0.1:3999/spark/v1/chat/completions'
    )
  })

  it('relays its OpenAI-shaped stream and usage', () => {
    const t = xunfeiAdapter.createStream(chatCall({ stream: true }))
    const out = runStream(
      t,
      'data: {"code":0,"message":"Success","sid":"cha1","id":"cha1","created":1700000000,"choices":[{"delta":{"role":"assistant","content":"你好"},"index":0}]}\n\n' +
        'data: {"code":0,"message":"Success","sid":"cha1","id":"cha1","created":1700000000,"choices":[{"delta":{"role":"assistant","content":""},"index":0}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\n\n' +
        'data: [DONE]\n\n'
    )
    expect(out).toHaveLength(2)
    expect(t.usage()).toEqual({ promptTokens: 1, completionTokens: 2 })
    expect(t.text()).toBe('你好')
  })

  it('is type 18, chat only', () => {
    expect(channelType(18)?.adapter).toBe(xunfeiAdapter)
    expect(xunfeiAdapter.supports('embeddings')).toBe(false)
  })
})
