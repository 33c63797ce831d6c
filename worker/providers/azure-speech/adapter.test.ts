/** Azure Speech: SSML from the OpenAI speech body (voices, speed, escaping), region host, output formats, raw audio and errors. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall } from '../../test/stream-harness'
import { channelType } from '../registry'
import { azureSpeechAdapter, azureVoice, toSsml } from './adapter'

const speech = (json: Record<string, unknown>) => chatCall({ model: 'tts-1', json: { model: 'tts-1', ...json } }, 'audio.speech')

describe('Azure Speech', () => {
  it('posts SSML to the region host with the subscription key and the output format', async () => {
    const req = await azureSpeechAdapter.buildRequest(speech({ input: 'Hello', voice: 'nova', response_format: 'opus' }), channel({ type: 24, key: 'az-key', other: 'eastus' }))
    expect(req.url).toBe('https://eastus.tts.speech.microsoft.com/cognitiveservices/v1')
    expect(req.headers.get('ocp-apim-subscription-key')).toBe('az-key')
    expect(req.headers.get('content-type')).toBe('application/ssml+xml')
    expect(req.headers.get('x-microsoft-outputformat')).toBe('ogg-24khz-16bit-mono-opus')
    expect(await req.text()).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US"><voice name="en-US-JennyMultilingualNeural">Hello</voice></speak>'
    )
  })

  it('uses a base URL instead of the region host, and mp3 for formats Azure lacks', async () => {
    const req = await azureSpeechAdapter.buildRequest(speech({ input: 'x', response_format: 'flac' }), channel({ baseUrl: 'http://127.0.0.1:3999/speech' }))
    expect(req.url).toBe('http://127.0.0.1:3999/speech/cognitiveservices/v1')
    expect(req.headers.get('x-microsoft-outputformat')).toBe('audio-24khz-48kbitrate-mono-mp3')
    expect(() => azureSpeechAdapter.buildRequest(speech({ input: 'x' }), channel())).toThrow(/region/)
  })

  it('keeps Azure voice names, escapes the text and turns speed into a prosody rate', () => {
    expect(azureVoice('zh-CN-XiaoxiaoNeural')).toBe('zh-CN-XiaoxiaoNeural')
    expect(azureVoice('unknown')).toBe('en-US-AvaMultilingualNeural')
    expect(toSsml({ input: 'a < b & "c"', voice: 'zh-CN-YunxiNeural', speed: 1.25 })).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="zh-CN"><voice name="zh-CN-YunxiNeural"><prosody rate="+25%">a &lt; b &amp; &quot;c&quot;</prosody></voice></speak>'
    )
    expect(toSsml({ input: 'slow', speed: 0.5 })).toContain('<prosody rate="-50%">slow</prosody>')
  })

  it('relays the audio as is and reads errors', async () => {
    const audio = new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/mpeg' } })
    const parsed = await azureSpeechAdapter.parseResponse(speech({ input: 'x' }), audio)
    expect(parsed.kind === 'raw' && parsed.response).toBe(audio)
    expect(azureSpeechAdapter.parseError(401, '')).toEqual({ message: 'Azure Speech answered 401' })
    expect(azureSpeechAdapter.parseError(400, '{"error":{"code":"InvalidRequest","message":"bad SSML"}}')).toEqual({ message: 'bad SSML', code: 'InvalidRequest' })
  })

  it('is type 24, speech only', () => {
    const type = channelType(24)!
    expect(type.adapter).toBe(azureSpeechAdapter)
    expect(type.adapter.supports('audio.speech')).toBe(true)
    expect(type.adapter.supports('chat')).toBe(false)
    expect(type.otherHint).toMatch(/region/i)
  })
})
