/**
 * Content safety on the answer side (`CheckSensitiveEnabled` + `CheckSensitiveOnCompletionEnabled`,
 * the same `SensitiveWords` list as the prompt side): every listed word in an answer's text is
 * replaced with `***` before the client reads it. It works on the relay's OpenAI-shaped answer, so
 * every inbound format's codec converts the already masked text.
 *
 * - A JSON answer: each choice's `message.content` (a string or text parts) and `text`.
 * - A stream: each choice's `delta.content`. A word may be split across chunks, so each choice
 *   holds back the text that could still be the start of a word — at most the longest word's
 *   length less one, and any occurrence that reaches into that tail — and releases it with the next
 *   chunk, fully with the choice's `finish_reason` chunk, or in one last chunk when the stream ends
 *   without one. Every chunk still goes out (with the part of its text that is safe to release), so
 *   the client's pace and the chunk count are unchanged.
 *
 * Reasoning text and tool-call arguments are not filtered (they are not the answer shown to a user).
 * The usage of a stream is counted from the supplier's original text, as before.
 */
import type { Settings } from '../../settings/store'
import { automatonFor } from './content-safety'
import type { WordAutomaton } from './word-automaton'

/** The automaton answers are masked with, or undefined when output filtering is off or the list is empty. */
export function outputFilterFor(settings: Settings): WordAutomaton | undefined {
  if (!settings.bool('CheckSensitiveEnabled') || !settings.bool('CheckSensitiveOnCompletionEnabled')) return undefined
  const list = settings.str('SensitiveWords')
  return list.trim() ? automatonFor(list) : undefined
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function maskContent(value: unknown, words: WordAutomaton): { value: unknown; count: number } {
  if (typeof value === 'string') {
    const m = words.mask(value)
    return { value: m.text, count: m.count }
  }
  if (!Array.isArray(value)) return { value, count: 0 }
  let count = 0
  for (const part of value) {
    if (isObject(part) && typeof part.text === 'string') {
      const m = words.mask(part.text)
      part.text = m.text
      count += m.count
    }
  }
  return { value, count }
}

/** Masks a JSON answer's choices in place; returns how many occurrences were replaced. */
export function maskAnswer(body: unknown, words: WordAutomaton): number {
  if (!isObject(body) || !Array.isArray(body.choices)) return 0
  let count = 0
  for (const choice of body.choices) {
    if (!isObject(choice)) continue
    if (isObject(choice.message) && 'content' in choice.message) {
      const m = maskContent(choice.message.content, words)
      choice.message.content = m.value
      count += m.count
    }
    if (typeof choice.text === 'string') {
      const m = words.mask(choice.text)
      choice.text = m.text
      count += m.count
    }
  }
  return count
}

/** One choice's text not yet released to the client (unmasked). */
interface Held {
  text: string
}

/**
 * The stream side: `chunk()` rewrites one OpenAI chat chunk payload, `end()` returns the payloads
 * still owed when the stream ends. Payloads that are not JSON chunks pass unchanged.
 */
export class StreamOutputFilter {
  private readonly held = new Map<number, Held>()
  /** id/object/created/model of the last chunk, for the closing chunk. */
  private skeleton: Json | undefined
  masked = 0

  constructor(private readonly words: WordAutomaton) {}

  chunk(payload: string): string {
    let parsed: unknown
    try {
      parsed = JSON.parse(payload)
    } catch {
      return payload
    }
    if (!isObject(parsed) || !Array.isArray(parsed.choices)) return payload
    this.skeleton = { id: parsed.id, object: parsed.object, created: parsed.created, model: parsed.model }
    let changed = false
    for (const choice of parsed.choices) {
      if (!isObject(choice)) continue
      const index = typeof choice.index === 'number' ? choice.index : 0
      const delta = isObject(choice.delta) ? choice.delta : undefined
      const incoming = delta && typeof delta.content === 'string' ? delta.content : ''
      const finished = choice.finish_reason !== undefined && choice.finish_reason !== null
      const held = this.held.get(index)
      if (!incoming && !finished) continue
      if (!incoming && !held?.text) continue
      const text = (held?.text ?? '') + incoming
      const release = finished ? text.length : this.safeCut(text)
      const out = this.words.mask(text.slice(0, release))
      this.masked += out.count
      this.held.set(index, { text: text.slice(release) })
      if (delta) delta.content = out.text
      else choice.delta = { content: out.text }
      changed = true
    }
    return changed ? JSON.stringify(parsed) : payload
  }

  /** The closing chunk for choices whose text is still held (the stream ended without their finish chunk). */
  end(): string[] {
    const choices: Json[] = []
    for (const [index, held] of this.held) {
      if (!held.text) continue
      const out = this.words.mask(held.text)
      this.masked += out.count
      choices.push({ index, delta: { content: out.text }, finish_reason: null })
    }
    this.held.clear()
    if (choices.length === 0) return []
    return [JSON.stringify({ ...this.skeleton, object: 'chat.completion.chunk', choices })]
  }

  /**
   * How much of `text` can go out now: everything but the last (longest word − 1) characters,
   * and never part of an occurrence that reaches into that tail (it is masked once whole).
   */
  private safeCut(text: string): number {
    let cut = Math.max(0, text.length - (this.words.longestWord - 1))
    for (;;) {
      let start = this.words.startCrossing(text, cut)
      // Never between the two halves of a surrogate pair (some clients cannot join them again).
      const unit = text.charCodeAt(start)
      if (start > 0 && unit >= 0xdc00 && unit <= 0xdfff) start--
      if (start === cut) return cut
      cut = start
    }
  }
}
