/**
 * What a realtime session has cost so far and may cost next, read from the frames the gateway
 * relays (no I/O): the session's audio formats, output limit and input transcription model; the
 * conversation's input tokens (client text and audio, and what each finished response reported);
 * and the worst case and the streamed cost of a response or a transcription in quota units.
 *
 * Estimates are upper bounds where money depends on them: text counts one token per UTF-8 byte
 * (a byte-level BPE never makes more), audio counts the rates OpenAI documents for realtime
 * models (user audio 1 token per 100 ms, assistant audio 1 token per 50 ms) at the session's
 * format (pcm16: 24 kHz, 2 bytes a sample; g711: 8 kHz, 1 byte), and the conversation is capped at
 * the model's context window, beyond which the supplier truncates.
 */
import { affordableOutputTokens, audioMinutes, computeQuota, worstCaseQuota, type ModelPrice, type Usage } from '../../billing/formula'
import { approximateTokens } from '../tokenizer'

/** The protocol's own ceiling for `max_response_output_tokens` / `max_output_tokens` ("inf" means this). */
export const MAX_OUTPUT_TOKENS = 4096
/** The largest realtime context window (gpt-4o-realtime: 128k); the supplier truncates beyond it. */
const MAX_CONTEXT_TOKENS = 128_000
const AUDIO_IN_TOKENS_PER_SECOND = 10
const AUDIO_OUT_TOKENS_PER_SECOND = 20
/**
 * Input every response carries beyond what the gateway saw: the supplier's default instructions
 * (when the session sets none) and the framing of each message.
 */
const RESPONSE_OVERHEAD_TOKENS = 256
/** Transcript tokens per second of speech at most (as the transcription relay assumes). */
const TRANSCRIPT_TOKENS_PER_SECOND = 5

/** Bytes per second of a realtime audio format (pcm16 at 24 kHz unless it is G.711). */
export const audioBytesPerSecond = (format: string | undefined) => (format === 'g711_ulaw' || format === 'g711_alaw' ? 8000 : 48_000)

const audioInTokens = (bytes: number, format: string | undefined) => Math.ceil((bytes / audioBytesPerSecond(format)) * AUDIO_IN_TOKENS_PER_SECOND)

/** Decoded length of a base64 string. */
export function base64Bytes(b64: unknown): number {
  if (typeof b64 !== 'string') return 0
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((b64.length * 3) / 4) - pad)
}

const encoder = new TextEncoder()
/** Upper bound of the text tokens of a value: the UTF-8 bytes of its JSON, audio payloads left out. */
export function textTokensOf(value: unknown): number {
  if (value === undefined || value === null) return 0
  return encoder.encode(JSON.stringify(value, (k, v) => (k === 'audio' && typeof v === 'string' ? '' : v))).length
}

/** Base64 audio bytes anywhere in a value (input_audio content parts). */
export function audioBytesOf(value: unknown): number {
  if (!value || typeof value !== 'object') return 0
  let n = 0
  for (const [k, v] of Object.entries(value)) n += k === 'audio' && typeof v === 'string' ? base64Bytes(v) : audioBytesOf(v)
  return n
}

/** Tokens of one side of a response: text and audio (audio is billed at its own ratio). */
export interface Tokens {
  text: number
  audio: number
}

const usageOf = (input: Tokens, output: Tokens): Usage => {
  const extra: NonNullable<Usage['extra']> = {}
  if (input.audio > 0) extra.input_audio_tokens = input.audio
  if (output.audio > 0) extra.output_audio_tokens = output.audio
  return { promptTokens: input.text + input.audio, completionTokens: output.text + output.audio, ...(Object.keys(extra).length ? { extra } : {}) }
}

/** Whether an output token costs most as audio (the worst case assumes the dearer kind). */
const audioOutputDearer = (price: ModelPrice) => (price.extraRatios?.output_audio_tokens ?? 1) > 1

/** A response's worst case: its input, then `outputTokens` of the dearer output kind. */
export function responseWorstCase(price: ModelPrice, input: Tokens, outputTokens: number, groupRatio: number): number {
  const out = audioOutputDearer(price) ? { text: 0, audio: outputTokens } : { text: outputTokens, audio: 0 }
  return computeQuota(price, usageOf(input, out), groupRatio).quota
}

/** How many output tokens `held` units pay for after the input (the cap sent upstream). */
export function affordableOutput(price: ModelPrice, input: Tokens, groupRatio: number, held: number): number {
  const ratio = Math.max(1, price.extraRatios?.output_audio_tokens ?? 1)
  const inputCost = computeQuota(price, usageOf(input, { text: 0, audio: 0 }), groupRatio).quota
  // The input's cost (its fee included) is already taken from `held`: the output side alone, at the price's own rates.
  const perOutput: ModelPrice = { ...price, input: 0, output: price.output * ratio, tier: null, fee: 0 }
  return affordableOutputTokens(perOutput, { promptTokens: 0, outputTokens: MAX_OUTPUT_TOKENS }, groupRatio, held - inputCost)
}

/** Usage of what a response streamed before it was cut: its input and the deltas received. */
export const streamedUsage = (input: Tokens, output: Tokens): Usage => usageOf(input, output)

/** A transcription of `bytes` of audio: its worst case, or its estimate once the transcript is known. */
export function transcriptionUsage(price: ModelPrice, bytes: number, format: string | undefined, transcript?: string): Usage {
  const seconds = bytes / audioBytesPerSecond(format)
  if (price.type === 'times') return { promptTokens: 0, completionTokens: 0, calls: audioMinutes(Math.max(1, seconds)) }
  const audio = audioInTokens(bytes, format)
  const text = transcript === undefined ? Math.ceil(seconds * TRANSCRIPT_TOKENS_PER_SECOND) : approximateTokens(transcript)
  return usageOf({ text: 0, audio }, { text, audio: 0 })
}

export const transcriptionWorstCase = (price: ModelPrice, bytes: number, format: string | undefined, groupRatio: number) =>
  price.type === 'times'
    ? worstCaseQuota(price, { promptTokens: 0, outputTokens: 0, calls: transcriptionUsage(price, bytes, format).calls }, groupRatio)
    : computeQuota(price, transcriptionUsage(price, bytes, format), groupRatio).quota

/** The session as the gateway understands it, and the conversation's size. */
export class SessionMeter {
  inputFormat: string | undefined
  outputFormat: string | undefined
  /** The input transcription model, while transcription is on. */
  transcription: string | undefined
  /** The session's output limit per response (what server-started responses may produce). */
  maxOutput = MAX_OUTPUT_TOKENS
  /** Whether the server starts responses by itself (turn detection with create_response; OpenAI's default). */
  autoResponse = true
  /** Text tokens of the session's instructions and tools (sent with every response). */
  private sessionText = 0
  /** Client input added to the conversation since the session began. */
  private added: Tokens = { text: 0, audio: 0 }
  /** The conversation's size as the last finished response reported it, and `added` at its start. */
  private base: Tokens = { text: 0, audio: 0 }
  private baseMark: Tokens = { text: 0, audio: 0 }
  /** Audio appended since the last commit (bounds the next transcription). */
  bufferBytes = 0

  /** The session fields a session.update (or the supplier's session.created/updated) sets. */
  applySession(s: Record<string, unknown> | undefined) {
    if (!s || typeof s !== 'object') return
    if (typeof s.input_audio_format === 'string') this.inputFormat = s.input_audio_format
    if (typeof s.output_audio_format === 'string') this.outputFormat = s.output_audio_format
    if ('input_audio_transcription' in s) {
      const t = s.input_audio_transcription as { model?: unknown } | null
      this.transcription = t && typeof t === 'object' ? (typeof t.model === 'string' && t.model ? t.model : 'whisper-1') : undefined
    }
    if (typeof s.max_response_output_tokens === 'number') this.maxOutput = Math.min(MAX_OUTPUT_TOKENS, Math.max(1, Math.floor(s.max_response_output_tokens)))
    else if (s.max_response_output_tokens === 'inf') this.maxOutput = MAX_OUTPUT_TOKENS
    if ('turn_detection' in s) {
      const td = s.turn_detection as { create_response?: unknown } | null
      this.autoResponse = Boolean(td && typeof td === 'object' && td.create_response !== false)
    }
    if ('instructions' in s || 'tools' in s) this.sessionText = textTokensOf({ i: s.instructions, t: s.tools })
  }

  /** A client frame that adds to the conversation (items, appended audio); what it added. */
  addInput(text: number, audioBytes: number): Tokens {
    const added = { text, audio: audioInTokens(audioBytes, this.inputFormat) }
    this.added.text += added.text
    this.added.audio += added.audio
    return added
  }

  /** A frame the gateway refused after counting it (never forwarded). */
  removeInput(t: Tokens) {
    this.added.text -= t.text
    this.added.audio -= t.audio
  }

  /** The input of an out-of-band response with its own items: the session's instructions, `text` and `audioBytes`. */
  standalone(text: number, audioBytes: number): Tokens {
    return { text: this.sessionText + text + RESPONSE_OVERHEAD_TOKENS, audio: audioInTokens(audioBytes, this.inputFormat) }
  }

  /** A snapshot of the client input so far (kept with a response, see `conversationDone`). */
  mark(): Tokens {
    return { ...this.added }
  }

  /** The conversation's input for the next response, plus `extraText` (the response's own instructions). */
  conversation(extraText = 0): Tokens {
    const text = this.base.text + this.added.text - this.baseMark.text + this.sessionText + extraText + RESPONSE_OVERHEAD_TOKENS
    const audio = Math.min(MAX_CONTEXT_TOKENS, this.base.audio + this.added.audio - this.baseMark.audio)
    return { text: Math.min(text, MAX_CONTEXT_TOKENS - audio), audio }
  }

  /** A response in the conversation finished: its reported input and output are now the conversation. */
  conversationDone(usage: Usage, mark: Tokens) {
    const inAudio = usage.extra?.input_audio_tokens ?? 0
    const outAudio = usage.extra?.output_audio_tokens ?? 0
    this.base = { text: usage.promptTokens - inAudio + usage.completionTokens - outAudio, audio: inAudio + outAudio }
    this.baseMark = mark
  }

  /** Output tokens of streamed text and audio (the deltas of one response). */
  outputTokens(textChars: string, audioBytes: number): Tokens {
    return { text: approximateTokens(textChars), audio: Math.ceil((audioBytes / audioBytesPerSecond(this.outputFormat)) * AUDIO_OUT_TOKENS_PER_SECOND) }
  }
}
