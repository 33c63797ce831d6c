/** OpenAI-compatible presets: version segments, local base URLs, supported operations and balance queries. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse } from '../../test/stream-harness'
import { deepseekBalance, moonshotBalance, openRouterBalance, siliconflowBalance } from '../balance'
import { channelType } from '../registry'

describe('compatible presets', () => {
  it('appends the vendor path to a local Ollama base URL', async () => {
    const ollama = channelType(39)!.adapter
    const chat = await ollama.buildRequest(chatCall(), channel({ type: 39, baseUrl: 'http://127.0.0.1:11434', key: 'x' }))
    expect(chat.url).toBe('http://127.0.0.1:11434/v1/chat/completions')
    const embed = await ollama.buildRequest(chatCall({ json: { model: 'nomic-embed-text', input: 'a' } }, 'embeddings'), channel({ baseUrl: 'http://127.0.0.1:11434' }))
    expect(embed.url).toBe('http://127.0.0.1:11434/v1/embeddings')
    expect(ollama.modelsRequest!(channel({ baseUrl: 'http://127.0.0.1:11434' })).url).toBe('http://127.0.0.1:11434/v1/models')
  })

  it('keeps the version segment of Baidu v2 under a proxy base URL', async () => {
    const baidu = channelType(15)!.adapter
    expect((await baidu.buildRequest(chatCall(), channel({ baseUrl: 'https://proxy.example.com' }))).url).toBe('https://proxy.example.com/v2/chat/completions')
    expect((await baidu.buildRequest(chatCall(), channel({ baseUrl: 'https://proxy.example.com/v2' }))).url).toBe('https://proxy.example.com/v2/chat/completions')
    expect((await baidu.buildRequest(chatCall({ json: { model: 'embedding-v1', input: 'a' } }, 'embeddings'), channel())).url).toBe('https://qianfan.baidubce.com/v2/embeddings')
  })

  it('calls Azure OpenAI v1 under /openai/v1 with the api-key header', async () => {
    const azure = channelType(55)!.adapter
    const req = await azure.buildRequest(chatCall({ model: 'my-gpt41' }), channel({ type: 55, key: 'az', baseUrl: 'https://res.openai.azure.com' }))
    expect(req.url).toBe('https://res.openai.azure.com/openai/v1/chat/completions')
    expect(req.headers.get('api-key')).toBe('az')
    expect(req.headers.has('authorization')).toBe(false)
  })

  it('calls Jina for embeddings and rerank only', async () => {
    const jina = channelType(47)!.adapter
    const req = await jina.buildRequest(chatCall({ json: { model: 'jina-reranker-m0', query: 'q', documents: ['a'] } }, 'rerank'), channel({ key: 'jina_x' }))
    expect(req.url).toBe('https://api.jina.ai/v1/rerank')
    expect(jina.supports('chat')).toBe(false)
    expect(jina.supports('embeddings')).toBe(true)
  })

  it('lists Perplexity models under the API root (no version segment)', () => {
    expect(channelType(1003)!.adapter.modelsRequest!(channel()).url).toBe('https://api.perplexity.ai/models')
  })

  it.each([
    [1, ['chat', 'embeddings', 'audio.speech', 'images.generations'], []],
    [28, ['chat', 'completions'], ['embeddings', 'images.generations']],
    [29, ['chat'], ['embeddings', 'audio.speech']],
    [31, ['chat', 'audio.transcriptions'], ['embeddings', 'audio.speech']],
    [45, ['chat', 'embeddings', 'rerank'], ['completions']],
    [17, ['chat', 'embeddings'], ['rerank', 'images.generations']],
    [1003, ['chat'], ['embeddings']],
  ] as const)('type %i supports %j and refuses %j', (id, yes, no) => {
    const adapter = channelType(id)!.adapter
    for (const op of yes) expect(adapter.supports(op)).toBe(true)
    for (const op of no) expect(adapter.supports(op)).toBe(false)
  })
})

describe('MiniMax base_resp errors', () => {
  const minimax = () => channelType(27)!.adapter

  it('turns a failure inside a 200 answer into an upstream failure', async () => {
    const body = '{"id":"","choices":null,"base_resp":{"status_code":1004,"status_msg":"login fail: Please carry the API secret key"}}'
    await expect(minimax().parseResponse(chatCall(), jsonResponse(body))).rejects.toThrow('upstream error 1004: login fail: Please carry the API secret key')
    expect(minimax().parseError(401, body)).toEqual({ message: 'login fail: Please carry the API secret key', code: '1004' })
  })

  it('passes a successful answer (status_code 0) through', async () => {
    const body =
      '{"id":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4},"base_resp":{"status_code":0,"status_msg":""}}'
    const parsed = await minimax().parseResponse(chatCall(), jsonResponse(body))
    expect(parsed.kind === 'json' && parsed.usage).toEqual({ promptTokens: 3, completionTokens: 1 })
  })
})

describe('balance queries', () => {
  const ch = (key: string) => channel({ key })

  it('DeepSeek reads /user/balance', () => {
    const [req] = deepseekBalance.requests(ch('sk-d'), 'https://api.deepseek.com')
    expect(req!.url).toBe('https://api.deepseek.com/user/balance')
    expect(req!.headers.get('authorization')).toBe('Bearer sk-d')
    expect(deepseekBalance.parse([{ is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '110.00', granted_balance: '10.00' }] }])).toBe(110)
  })

  it('Moonshot reads /v1/users/me/balance', () => {
    const [req] = moonshotBalance.requests(ch('sk-m'), 'https://api.moonshot.cn')
    expect(req!.url).toBe('https://api.moonshot.cn/v1/users/me/balance')
    expect(moonshotBalance.parse([{ code: 0, data: { available_balance: 49.58894, voucher_balance: 46.58893, cash_balance: 3.00001 } }])).toBe(49.58894)
  })

  it('SiliconFlow reads /v1/user/info', () => {
    const [req] = siliconflowBalance.requests(ch('sk-s'), 'https://api.siliconflow.cn')
    expect(req!.url).toBe('https://api.siliconflow.cn/v1/user/info')
    expect(siliconflowBalance.parse([{ code: 20000, data: { balance: '0.88', chargeBalance: '88.00', totalBalance: '88.88' } }])).toBe(88.88)
  })

  it('OpenRouter reads /v1/credits (purchased minus used), honouring a base URL', () => {
    const [req] = openRouterBalance.requests(ch('sk-or'), 'https://openrouter.ai/api')
    expect(req!.url).toBe('https://openrouter.ai/api/v1/credits')
    expect(req!.headers.get('authorization')).toBe('Bearer sk-or')
    expect(openRouterBalance.requests(channel({ key: 'k', baseUrl: 'http://127.0.0.1:3999' }), 'https://openrouter.ai/api')[0]!.url).toBe('http://127.0.0.1:3999/v1/credits')
    expect(openRouterBalance.parse([{ data: { total_credits: 25, total_usage: 7.25 } }])).toBe(17.75)
    expect(channelType(20)!.balance).toBe(openRouterBalance)
  })
})
