/**
 * The local mock supplier of the README's "Try the relay offline" (`npm run mock-upstream`): when
 * the console runs on this machine, the empty states offer a channel sheet prefilled for it.
 */
import type { ChannelFormValues } from './schema'

export const LOCAL_MOCK_URL = 'http://127.0.0.1:3999'
/** Channel type "Custom (OpenAI-compatible)". */
export const CUSTOM_CHANNEL_TYPE = 8
export const LOCAL_MOCK_MODEL = 'gpt-4o-mini'

export const localMockPreset: Partial<ChannelFormValues> = {
  type: String(CUSTOM_CHANNEL_TYPE),
  name: 'Local mock',
  base_url: LOCAL_MOCK_URL,
  key: 'sk-mock',
  models: [LOCAL_MOCK_MODEL],
  test_model: LOCAL_MOCK_MODEL,
}

/** The console is opened on the machine that runs the gateway (npm start / npm run dev). */
export function isLocalConsole(hostname = window.location.hostname): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname)
}
