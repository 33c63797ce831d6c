/**
 * Content safety on the prompt side of every relay request, applied once on the relay's inner
 * (OpenAI-shaped) body, after any inbound codec converted it — so chat, Responses, Anthropic
 * Messages, Gemini, completions, embeddings, rerank, image prompts and speech input are all
 * covered by one walk over the text a supplier would read: message text parts, system
 * prompts, tool-call arguments, string inputs and multipart prompts. Moderation requests, which
 * exist to classify such text, pass as sent.
 *
 * - Sensitive words (`CheckSensitiveEnabled` + `CheckSensitiveOnPromptEnabled`, `SensitiveWords`):
 *   `SensitiveWordsAction` `refuse` answers 400 `sensitive_words_detected` before anything is held
 *   or sent; `mask` replaces each occurrence with `***`.
 * - Personal data (`PiiMaskingEnabled`, overridden per group by `PiiMaskingGroups`): pii-mask.ts.
 *
 * The word automaton is built once per `SensitiveWords` value and kept for the isolate; the warm
 * path does no I/O here. What was masked is counted on the input (`contentSafety`) for the log
 * row's metadata — counts only, never the values. A masked request never takes an inbound format's
 * native pass-through (which would send the client's original body): relay-request.ts sends the
 * masked chat body through the channel's own adapter instead.
 */
import { ApiError } from '../../lib/errors'
import type { Settings } from '../../settings/store'
import type { RelayInput } from '../relay-input'
import { maskPii, type PiiCounts } from './pii-mask'
import { parseWordList, WordAutomaton } from './word-automaton'

/** What the policy masked in one request (for the log metadata). */
export interface ContentSafetyCounts {
  sensitive_words: number
  pii: PiiCounts
}

let cached: { list: string; automaton: WordAutomaton } | undefined

/** The automaton of a `SensitiveWords` value, built on first use and kept until the value changes. */
export function automatonFor(list: string): WordAutomaton {
  if (cached?.list !== list) cached = { list, automaton: new WordAutomaton(parseWordList(list)) }
  return cached.automaton
}

/** Whether PII masking applies to a group: its entry in `PiiMaskingGroups`, else `PiiMaskingEnabled`. */
let groupsCache: { raw: string; groups: Record<string, unknown> | null } | undefined

function piiMaskingFor(settings: Settings, group: string): boolean {
  // Parsed once per value of the setting, not on every relay request.
  const raw = settings.str('PiiMaskingGroups')
  if (groupsCache?.raw !== raw) groupsCache = { raw, groups: settings.json<Record<string, unknown> | null>('PiiMaskingGroups') }
  const groups = groupsCache.groups
  const own = groups && typeof groups === 'object' && Object.hasOwn(groups, group) ? groups[group] : undefined
  return typeof own === 'boolean' ? own : settings.bool('PiiMaskingEnabled')
}

const sensitiveWordsRefusal = () =>
  // The code is in the message too: the Anthropic and Gemini envelopes have no field for it.
  new ApiError(400, 'The prompt contains sensitive words (sensitive_words_detected); it was not sent.', {
    type: 'invalid_request_error',
    code: 'sensitive_words_detected',
  })

type Edit = (text: string) => string

/** Tool-call arguments: the JSON's string values when it parses, else the raw text. */
function editArguments(args: string, edit: Edit): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(args)
  } catch {
    return edit(args)
  }
  let changed = false
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const next = edit(v)
      if (next !== v) changed = true
      return next
    }
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  const result = walk(parsed)
  return changed ? JSON.stringify(result) : args
}

/** A string, or the text parts of an array (`{type:'text'|'input_text', text}`, plain strings). */
function editContent(value: unknown, edit: Edit): unknown {
  if (typeof value === 'string') return edit(value)
  if (!Array.isArray(value)) return value
  for (let i = 0; i < value.length; i++) {
    const part = value[i]
    if (typeof part === 'string') value[i] = edit(part)
    else if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
      const p = part as { type?: unknown; text: string }
      if (p.type === undefined || p.type === 'text' || p.type === 'input_text') p.text = edit(p.text)
    }
  }
  return value
}

function editMessage(message: Record<string, unknown>, edit: Edit) {
  if ('content' in message) message.content = editContent(message.content, edit)
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = call && typeof call === 'object' ? (call as { function?: { arguments?: unknown } }).function : undefined
      if (fn && typeof fn.arguments === 'string') fn.arguments = editArguments(fn.arguments, edit)
    }
  }
  const legacy = message.function_call as { arguments?: unknown } | undefined
  if (legacy && typeof legacy.arguments === 'string') legacy.arguments = editArguments(legacy.arguments, edit)
}

/** Applies `edit` to every prompt text of the request, in place. */
function editPromptText(input: RelayInput, edit: Edit): void {
  if (input.form) {
    const prompt = input.form.get('prompt')
    if (typeof prompt === 'string') {
      const next = edit(prompt)
      if (next !== prompt) input.form.set('prompt', next)
    }
    return
  }
  const body = input.json
  if (!body) return
  if (Array.isArray(body.messages)) for (const m of body.messages) if (m && typeof m === 'object') editMessage(m as Record<string, unknown>, edit)
  for (const field of ['prompt', 'input', 'query'] as const) if (field in body) body[field] = editContent(body[field], edit)
  if (Array.isArray(body.documents)) body.documents = editContent(body.documents, edit)
}

/**
 * The prompt-side policy: throws the 400 refusal, or masks in place and records the counts on
 * `input.contentSafety` when anything was masked. No-op (no walk) when nothing is turned on.
 */
export function applyContentSafety(input: RelayInput, settings: Settings, group: string): void {
  // A moderation request exists to classify such text: it goes to the supplier as sent.
  if (input.op === 'moderations') return
  const list = settings.bool('CheckSensitiveEnabled') && settings.bool('CheckSensitiveOnPromptEnabled') ? settings.str('SensitiveWords') : ''
  const words = list.trim() ? automatonFor(list) : undefined
  const refuse = words !== undefined && settings.str('SensitiveWordsAction') !== 'mask'
  const maskWords = words !== undefined && !refuse
  const pii = piiMaskingFor(settings, group)
  if (refuse) {
    editPromptText(input, (text) => {
      if (words.test(text)) throw sensitiveWordsRefusal()
      return text
    })
  }
  if (!maskWords && !pii) return
  const counts: ContentSafetyCounts = { sensitive_words: 0, pii: {} }
  editPromptText(input, (text) => {
    let out = text
    if (maskWords) {
      const masked = words.mask(out)
      counts.sensitive_words += masked.count
      out = masked.text
    }
    return pii ? maskPii(out, counts.pii) : out
  })
  if (counts.sensitive_words === 0 && Object.keys(counts.pii).length === 0) return
  // promptEstimate stays the original prompt's: placeholders are about as long as what they replace.
  input.contentSafety = counts
}
