/** Gemini requests ↔ internal OpenAI bodies: contents, images, function calls paired by name, generationConfig bounds, answers, embeddings and errors. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors'
import { geminiEmbedCodec, geminiGenerateCodec } from './codec'

const codec = geminiGenerateCodec('gemini-2.5-flash', false)
const refusal = (body: unknown) => {
  try {
    codec.toOpenAI(body)
  } catch (err) {
    return err as ApiError
  }
  throw new Error('expected a refusal')
}

describe('Gemini request → chat', () => {
  it('converts system instruction, inline and file images, function calls/responses, tools and generationConfig', () => {
    const chat = codec.toOpenAI({
      systemInstruction: { parts: [{ text: 'You are a guide.' }, { text: 'Be brief.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Thinking…', thought: true },
            { text: 'The Eiffel Tower. ' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_time', args: {} } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { time: '14:05' } } }, { functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parametersJsonSchema: { type: 'object' } }, { name: 'get_time' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: {
        temperature: 1.2,
        topP: 0.9,
        topK: 32,
        maxOutputTokens: 300,
        candidateCount: 2,
        stopSequences: ['a', 'b', 'c', 'd', 'e'],
        responseMimeType: 'application/json',
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    })
    expect(chat).toEqual({
      model: 'gemini-2.5-flash',
      temperature: 1.2,
      top_p: 0.9,
      top_k: 32,
      max_tokens: 300,
      n: 2,
      stop: ['a', 'b', 'c', 'd'],
      response_format: { type: 'json_object' },
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'required',
      messages: [
        { role: 'system', content: 'You are a guide.\nBe brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: 'The Eiffel Tower. ',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_2', content: '{"time":"14:05"}' },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":18}' },
      ],
    })
  })

  it('streams with usage and maps NONE and a JSON schema', () => {
    const chat = geminiGenerateCodec('m', true).toOpenAI({
      contents: [{ parts: [{ text: 'x' }] }],
      tools: [{ functionDeclarations: [{ name: 'f' }] }],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: { responseSchema: { type: 'OBJECT' } },
    })
    expect(chat).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'none',
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'OBJECT' } } },
    })
  })

  it.each([
    ['no contents', {}],
    ['temperature 2.5', { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 2.5 } }],
    ['a fractional maxOutputTokens', { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { maxOutputTokens: 2.5 } }],
    ['candidateCount 9', { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { candidateCount: 9 } }],
    ['six stop sequences', { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { stopSequences: ['1', '2', '3', '4', '5', '6'] } }],
    ['a codeExecution tool', { contents: [{ parts: [{ text: 'x' }] }], tools: [{ codeExecution: {} }] }],
    ['only empty parts', { contents: [{ role: 'user', parts: [] }] }],
  ])('refuses %s with 400', (_name, body) => {
    expect(refusal(body).status).toBe(400)
  })
})

describe('OpenAI answers → Gemini', () => {
  it('builds one candidate per choice with thought, text and functionCall parts and usageMetadata', () => {
    const out = codec.fromOpenAI({
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hi', reasoning_content: 'Hmm' }, finish_reason: 'stop' },
        {
          index: 1,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16, completion_tokens_details: { reasoning_tokens: 2 } },
    })
    expect(out).toEqual({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Hmm', thought: true }, { text: 'Hi' }] }, finishReason: 'STOP', index: 0 },
        { content: { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP', index: 1 },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 16, thoughtsTokenCount: 2 },
      modelVersion: 'gpt-4o',
      responseId: 'chatcmpl-1',
    })
  })

  it('maps embeddings answers in index order and validates embedding requests', () => {
    const answer = {
      data: [
        { index: 1, embedding: [3, 4] },
        { index: 0, embedding: [1, 2] },
      ],
    }
    expect(geminiEmbedCodec('e', true).fromOpenAI(answer)).toEqual({ embeddings: [{ values: [1, 2] }, { values: [3, 4] }] })
    expect(geminiEmbedCodec('e', false).fromOpenAI(answer)).toEqual({ embedding: { values: [1, 2] } })
    expect(() => geminiEmbedCodec('e', true).toOpenAI({ requests: [] })).toThrow(ApiError)
    expect(() => geminiEmbedCodec('e', false).toOpenAI({ content: { parts: [{ text: 'x' }] }, outputDimensionality: 0 })).toThrow(ApiError)
  })

  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ] as const)('renders %d as %s', async (status, name) => {
    const res = codec.errorResponse(new ApiError(status, 'no'))
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ error: { code: status, message: 'no', status: name } })
  })
})
