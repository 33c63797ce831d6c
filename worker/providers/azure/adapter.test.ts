/** Azure OpenAI: deployment URLs, api-version from "other", api-key header, shared OpenAI parsing. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream } from '../../test/stream-harness'
import { AZURE_DEFAULT_API_VERSION, azureAdapter, azureDeployment } from './adapter'

const azure = (other = '') => channel({ type: 3, baseUrl: 'https://contoso-eastus.openai.azure.com/', key: 'azkey123', other })
const messages = [{ role: 'user', content: 'hi' }]

describe('Azure request', () => {
  it('builds the chat deployment URL with the default api-version and the api-key header', async () => {
    const json = { model: 'gpt-3.5-turbo', messages }
    const req = await azureAdapter.buildRequest(chatCall({ model: 'gpt-3.5-turbo', json }), azure())
    expect(req.url).toBe(`https://contoso-eastus.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`)
    expect(AZURE_DEFAULT_API_VERSION).toBe('2024-10-21')
    expect(req.headers.get('api-key')).toBe('azkey123')
    expect(req.headers.get('authorization')).toBeNull()
    expect(await req.json()).toEqual(json)
  })

  it('takes the api-version from "other" (trimmed)', async () => {
    const req = await azureAdapter.buildRequest(chatCall({ model: 'gpt-4o' }), azure(' 2025-04-01-preview '))
    expect(req.url).toBe('https://contoso-eastus.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-04-01-preview')
  })

  it('builds the embeddings path', async () => {
    const req = await azureAdapter.buildRequest(
      chatCall({ model: 'text-embedding-3-small', json: { model: 'text-embedding-3-small', input: ['a'] } }, 'embeddings'),
      azure('2024-06-01')
    )
    expect(req.url).toBe('https://contoso-eastus.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-06-01')
  })

  it('injects include_usage for streams', async () => {
    const req = await azureAdapter.buildRequest(chatCall({ model: 'gpt-4o', stream: true, json: { model: 'gpt-4o', messages, stream: true } }), azure())
    expect((await req.json()) as object).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('removes dots from deployment names', () => {
    expect(azureDeployment('gpt-4.1-mini')).toBe('gpt-41-mini')
    expect(azureDeployment('gpt-4o')).toBe('gpt-4o')
  })

  it('supports the operations Azure deploys, not rerank', () => {
    for (const op of ['chat', 'completions', 'embeddings', 'images.generations', 'audio.speech', 'audio.transcriptions'] as const) {
      expect(azureAdapter.supports(op)).toBe(true)
    }
    expect(azureAdapter.supports('rerank')).toBe(false)
    expect(azureAdapter.supports('images.edits')).toBe(false)
  })

  it('lists models with the api-key header', () => {
    const req = azureAdapter.modelsRequest!(azure())
    expect(req.url).toBe(`https://contoso-eastus.openai.azure.com/openai/models?api-version=${AZURE_DEFAULT_API_VERSION}`)
    expect(req.headers.get('api-key')).toBe('azkey123')
    expect(azureAdapter.parseModels!({ data: [{ id: 'gpt-4o' }], object: 'list' })).toEqual(['gpt-4o'])
  })
})

describe('Azure response', () => {
  it('parses answers, including the content-filter annotations Azure adds', async () => {
    const body = {
      id: 'chatcmpl-AzR1',
      object: 'chat.completion',
      created: 1754469000,
      model: 'gpt-4o-2024-11-20',
      prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }],
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello!' }, content_filter_results: {} }],
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12, prompt_tokens_details: { cached_tokens: 0 } },
    }
    const parsed = await azureAdapter.parseResponse(chatCall(), jsonResponse(JSON.stringify(body)))
    expect(parsed).toMatchObject({ kind: 'json', body, usage: { promptTokens: 9, completionTokens: 3 }, text: 'Hello!' })
  })

  it('streams like OpenAI: the prompt-filter chunk passes through, the usage chunk is captured', () => {
    const raw = [
      'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}',
      'data: {"choices":[{"delta":{"content":"Hi","role":"assistant"},"finish_reason":null,"index":0}],"created":1754469001,"id":"chatcmpl-AzS","model":"gpt-4o-2024-11-20","object":"chat.completion.chunk"}',
      'data: {"choices":[{"delta":{},"finish_reason":"stop","index":0}],"created":1754469001,"id":"chatcmpl-AzS","model":"gpt-4o-2024-11-20","object":"chat.completion.chunk"}',
      'data: {"choices":[],"created":1754469001,"id":"chatcmpl-AzS","model":"gpt-4o-2024-11-20","object":"chat.completion.chunk","usage":{"completion_tokens":1,"prompt_tokens":8,"total_tokens":9}}',
      'data: [DONE]',
      '',
    ].join('\n\n')
    const t = azureAdapter.createStream(chatCall({ stream: true, includeUsage: true }))
    const out = runStream(t, raw, 5)
    expect(out).toHaveLength(3)
    expect(t.usage()).toEqual({ promptTokens: 8, completionTokens: 1 })
    expect(t.text()).toBe('Hi')
  })

  it('parses Azure error bodies', () => {
    const body = '{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}'
    expect(azureAdapter.parseError(404, body)).toEqual({ message: 'The API deployment for this resource does not exist.', type: undefined, code: 'DeploymentNotFound' })
  })
})
