/**
 * Azure Speech (type 24): OpenAI `audio/speech` → Azure text-to-speech (SSML POST to
 * `https://{region}.tts.speech.microsoft.com/cognitiveservices/v1`, key in
 * Ocp-Apim-Subscription-Key, region in the channel's "other" field). OpenAI voice names map to
 * Azure neural voices (or the channel's voice plugin map, `voice|role`); an Azure voice name
 * (xx-XX-NameNeural) is used as given.
 */
import type { ChannelInfo, ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { OpenAIStream } from '../openai/adapter'
import { mappedVoice } from '../plugins'

/** OpenAI voice → an Azure multilingual neural voice of a similar character. */
export const VOICES: Record<string, string> = {
  alloy: 'en-US-AvaMultilingualNeural',
  ash: 'en-US-AndrewMultilingualNeural',
  coral: 'en-US-EmmaMultilingualNeural',
  echo: 'en-US-BrianMultilingualNeural',
  fable: 'en-GB-AdaMultilingualNeural',
  onyx: 'en-US-DavisNeural',
  nova: 'en-US-JennyMultilingualNeural',
  sage: 'en-US-CoraMultilingualNeural',
  shimmer: 'en-US-AriaNeural',
}

/** OpenAI response_format → X-Microsoft-OutputFormat (formats Azure lacks fall back to mp3). */
const FORMATS: Record<string, { azure: string; mime: string }> = {
  mp3: { azure: 'audio-24khz-48kbitrate-mono-mp3', mime: 'audio/mpeg' },
  opus: { azure: 'ogg-24khz-16bit-mono-opus', mime: 'audio/ogg' },
  wav: { azure: 'riff-24khz-16bit-mono-pcm', mime: 'audio/wav' },
  pcm: { azure: 'raw-24khz-16bit-mono-pcm', mime: 'audio/pcm' },
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

export function azureVoice(voice: unknown): string {
  const v = typeof voice === 'string' ? voice.trim() : ''
  return /^[a-z]{2,3}-[A-Z]{2,4}-\w+$/.test(v) ? v : (VOICES[v.toLowerCase()] ?? VOICES.alloy!)
}

/** `mapped`: the channel's voice plugin entry for the requested voice (a role becomes mstts:express-as). */
export function toSsml(json: Record<string, unknown>, mapped?: { voice: string; role: string }): string {
  const voice = mapped ? xmlEscape(mapped.voice) : azureVoice(json.voice)
  const lang = voice.split('-').slice(0, 2).join('-')
  const speed = typeof json.speed === 'number' ? json.speed : 1
  const rate = Math.round((speed - 1) * 100)
  const text = xmlEscape(String(json.input ?? ''))
  const spoken = rate ? `<prosody rate="${rate > 0 ? '+' : ''}${rate}%">${text}</prosody>` : text
  const body = mapped?.role ? `<mstts:express-as role="${xmlEscape(mapped.role)}">${spoken}</mstts:express-as>` : spoken
  const ns = mapped?.role ? ' xmlns:mstts="https://www.w3.org/2001/mstts"' : ''
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis"${ns} xml:lang="${lang}"><voice name="${voice}">${body}</voice></speak>`
}

export const speechHost = (channel: ChannelInfo) => {
  const region = channel.other.trim()
  if (!channel.baseUrl && !region) throw new Error('Azure Speech needs its region in the channel\'s "other" field (e.g. eastus)')
  return channel.baseUrl || `https://${region}.tts.speech.microsoft.com`
}

export const azureSpeechAdapter: ProviderAdapter = {
  supports: (op) => op === 'audio.speech',
  buildRequest(call, channel) {
    const json = call.json ?? {}
    const format = FORMATS[String(json.response_format ?? 'mp3')] ?? FORMATS.mp3!
    return new Request(joinUrl(speechHost(channel), '/cognitiveservices/v1'), {
      method: 'POST',
      headers: {
        'ocp-apim-subscription-key': channel.key,
        'content-type': 'application/ssml+xml',
        'x-microsoft-outputformat': format.azure,
        'user-agent': 'edge-ai-gateway',
      },
      body: toSsml(json, typeof json.voice === 'string' ? mappedVoice(channel, json.voice) : undefined),
    })
  },
  async parseResponse(_call, res) {
    return { kind: 'raw', response: res }
  },
  // The relay streams only chat and completions, so this is never reached for speech.
  createStream: (call) => new OpenAIStream(call),
  parseError: (status, body) => (body.trim() ? errorFromBody(body) : { message: `Azure Speech answered ${status}` }),
}
