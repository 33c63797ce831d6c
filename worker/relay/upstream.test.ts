/** callUpstream: a channel whose adapter cannot build the request fails like an upstream; a client error stays one. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../lib/errors'
import { chatCall } from '../test/stream-harness'
import { openAIBaseAdapter } from '../providers/openai/adapter'
import type { ProviderAdapter } from '../providers/types'
import type { RoutedChannel } from './routing-table'
import { callUpstream } from './upstream'

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
