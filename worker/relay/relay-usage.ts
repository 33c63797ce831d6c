/**
 * What a relayed request used, for the bill (billing/formula.ts): the supplier's usage when it is
 * sane (sanitizeUsage), else the tokenizer's count of prompt and answer; speech bills the input's
 * characters; images add the calls and size/quality ratio a times price bills; transcriptions the
 * started minutes the supplier reports.
 */
import { audioMinutes, countOf, sanitizeUsage, type ModelPrice, type Usage } from '../billing/formula'
import { imageRatio } from '../billing/image-ratios'
import type { ParsedResponse } from '../providers/types'
import type { Settings } from '../settings/store'
import type { RelayInput } from './relay-input'
import { countChatPrompt, countTokens } from './tokenizer'

function promptText(json: Record<string, unknown>): string {
  const parts = [json.prompt, json.input, json.query, json.documents].flat().filter((v) => typeof v === 'string')
  return parts.join('\n')
}

export class RelayUsage {
  constructor(
    private readonly env: Env,
    private readonly settings: Settings,
    private readonly input: RelayInput
  ) {}

  private approximate() {
    return this.settings.bool('ApproximateTokenEnabled')
  }

  /** Usage when the upstream gave none: count the prompt and the answer with the tokenizer. */
  async counted(text: string, model: string): Promise<Usage> {
    const json = this.input.json ?? {}
    const prompt = Array.isArray(json.messages)
      ? await countChatPrompt(this.env, model, json.messages, this.approximate())
      : await countTokens(this.env, model, promptText(json), this.approximate())
    return { promptTokens: prompt, completionTokens: await countTokens(this.env, model, text, this.approximate()) }
  }

  /** The supplier's usage with the output at least the tokenizer's count of `text` (a stream cut before its final count). */
  async withOutputOf(usage: Usage, text: string, model: string): Promise<Usage> {
    return { ...usage, completionTokens: Math.max(usage.completionTokens, await countTokens(this.env, model, text, this.approximate())) }
  }

  /** Speech bills the input's characters; a plain-text transcript bills its text tokens (one call for times prices). */
  async ofRaw(model: string, response: Response): Promise<Usage> {
    if (this.input.op === 'audio.speech') {
      const input = this.input.json?.input
      return { promptTokens: typeof input === 'string' ? input.length : 0, completionTokens: 0 }
    }
    const text = await response.clone().text()
    return { promptTokens: 0, completionTokens: await countTokens(this.env, model, text, this.approximate()) }
  }

  /** Usage of a JSON answer, with the calls and ratio that times prices bill. */
  async ofJson(parsed: Extract<ParsedResponse, { kind: 'json' }>, model: string, price: ModelPrice): Promise<Usage> {
    const op = this.input.op
    const reported = sanitizeUsage(parsed.usage)
    if (op.startsWith('images.')) {
      const data = (parsed.body as { data?: unknown[] } | undefined)?.data
      const images = Array.isArray(data) ? data.length : this.input.n
      const usage = reported ?? (price.type === 'tokens' ? await this.counted('', model) : { promptTokens: 0, completionTokens: 0 })
      return { ...usage, calls: Math.max(1, Math.min(images, this.input.n)), callRatio: imageRatio(this.settings, price.model, this.input.imageSize, this.input.imageQuality) }
    }
    if (op === 'audio.transcriptions' || op === 'audio.translations') {
      const body = parsed.body as { duration?: unknown; usage?: { seconds?: unknown } } | undefined
      const seconds = countOf(body?.usage?.seconds) ?? (typeof body?.duration === 'number' ? body.duration : undefined)
      const usage = reported ?? { promptTokens: 0, completionTokens: await countTokens(this.env, model, parsed.text ?? '', this.approximate()) }
      return { ...usage, calls: audioMinutes(seconds) }
    }
    return reported ?? (await this.counted(parsed.text ?? '', model))
  }
}

/** Prompt tokens the supplier served from its prompt cache (OpenAI cached_tokens, Anthropic cache reads). */
export const cachedTokens = (usage: Usage) => (usage.extra?.cached_tokens ?? 0) + (usage.extra?.cached_read_tokens ?? 0)
