/**
 * Channel types whose upstream runs asynchronous tasks instead of OpenAI operations: Midjourney
 * (a midjourney-proxy, one-hub type 34), Suno (a Suno-API server, type 41) and Kling (video, type
 * 53). They serve no /v1 operation, so their adapter supports none; the /mj, /suno and /kling
 * routes (worker/tasks/) call them.
 */
import type { ChannelTypeEntry } from '../registry'
import type { ProviderAdapter } from '../types'

const refuse = (): never => {
  throw new Error('Asynchronous-task channels are called by worker/tasks/, not by the /v1 relay')
}

export const asyncTaskAdapter: ProviderAdapter = {
  supports: () => false,
  buildRequest: refuse,
  parseResponse: refuse,
  createStream: refuse,
  parseError: (status, body) => ({ message: `HTTP ${status}: ${body.slice(0, 200)}` }),
}

export const ASYNC_TASK_TYPES: ChannelTypeEntry[] = [
  {
    id: 34,
    adapter: asyncTaskAdapter,
    defaultBaseUrl: '',
    keyHint: "The proxy's mj-api-secret (any text when it has none)",
    baseUrlHint: 'https://your-midjourney-proxy (its /mj/... paths are appended)',
    models: [
      'mj_imagine',
      'mj_variation',
      'mj_reroll',
      'mj_upscale',
      'mj_describe',
      'mj_blend',
      'mj_shorten',
      'mj_modal',
      'mj_zoom',
      'mj_pan',
      'mj_high_variation',
      'mj_low_variation',
      'mj_inpaint',
      'mj_custom_zoom',
      'mj_upload',
      'mj_swap_face',
    ],
  },
  {
    id: 41,
    adapter: asyncTaskAdapter,
    defaultBaseUrl: '',
    keyHint: "The Suno-API server's bearer key",
    baseUrlHint: 'https://your-suno-api (its /suno/... paths are appended)',
    models: ['chirp-v3-0', 'chirp-v3-5', 'suno_lyrics'],
  },
  {
    id: 53,
    adapter: asyncTaskAdapter,
    defaultBaseUrl: 'https://api.klingai.com',
    keyHint: 'accessKey|secretKey (signed into a JWT per request), or a ready bearer token',
    baseUrlHint: 'https://api.klingai.com (its /v1/videos/... paths are appended)',
    models: ['kling-video_kling-v1_std_5', 'kling-video_kling-v1_std_10', 'kling-video_kling-v1_pro_5', 'kling-video_kling-v1_pro_10'],
  },
]
