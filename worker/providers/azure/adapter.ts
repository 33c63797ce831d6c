/**
 * Azure OpenAI: deployment URLs (`/openai/deployments/{deployment}/…?api-version=…`), `api-key`
 * header, API version from the channel's "other" field. The deployment is the upstream model name
 * with dots removed (gpt-3.5-turbo → gpt-35-turbo), as Azure names them.
 */
import type { ProviderAdapter, RelayOp } from '../types'
import { errorFromBody } from '../url'
import { OpenAIStream, openAIRequest, parseOpenAIResponse } from '../openai/adapter'

export const AZURE_DEFAULT_API_VERSION = '2024-10-21'

const AZURE_PATHS: Partial<Record<RelayOp, string>> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  'images.generations': 'images/generations',
  'audio.speech': 'audio/speech',
  'audio.transcriptions': 'audio/transcriptions',
  'audio.translations': 'audio/translations',
}

export const azureDeployment = (model: string) => model.replace(/\./g, '')

export const azureAdapter: ProviderAdapter = {
  supports: (op) => op in AZURE_PATHS,
  buildRequest(call, channel) {
    const base = channel.baseUrl.replace(/\/+$/, '')
    const version = channel.other.trim() || AZURE_DEFAULT_API_VERSION
    const url = `${base}/openai/deployments/${encodeURIComponent(azureDeployment(call.model))}/${AZURE_PATHS[call.op]}?api-version=${encodeURIComponent(version)}`
    return openAIRequest(url, call, { 'api-key': channel.key })
  },
  parseResponse: parseOpenAIResponse,
  createStream: (call) => new OpenAIStream(call),
  parseError: (_status, body) => errorFromBody(body),
  modelsRequest: (channel) =>
    new Request(`${channel.baseUrl.replace(/\/+$/, '')}/openai/models?api-version=${encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_API_VERSION)}`, {
      headers: { 'api-key': channel.key },
    }),
  parseModels: (body: any) => (Array.isArray(body?.data) ? body.data.map((m: any) => String(m.id)) : []),
}
