/**
 * Content-safety cost benchmark (`npm run bench:safety`): the CPU the prompt policy
 * (worker/relay/policies/content-safety.ts) adds to one relay request with a 100 KB chat prompt and
 * 5,000 sensitive words, on V8 in Node (the engine workerd runs), warm (the automaton is built once
 * per settings version, timed separately). Cases: refuse mode on a clean prompt (the full scan),
 * and mask mode with PII masking on a prompt holding words and personal data (scan, rewrite, PII).
 * The answer side (policies/output-filter.ts) is timed on the same text streamed back as 20-character
 * chunks, against the same run's bare parse + re-encode of each chunk (what any rewriting of a
 * stream costs). Writes the "safety" block of BENCHMARKS.md.
 *
 * Options (env): SAFETY_BENCH_N (requests per round, 200), SAFETY_BENCH_ROUNDS (7), SAFETY_BENCH_SPLIT=1
 * (also print the word mask and the PII mask alone).
 */
import os from 'node:os'
import { writeBlock } from './bench/report.mjs'
import { applyContentSafety } from '../worker/relay/policies/content-safety'
import { StreamOutputFilter } from '../worker/relay/policies/output-filter'
import { parseWordList, WordAutomaton } from '../worker/relay/policies/word-automaton'
import type { RelayInput } from '../worker/relay/relay-input'
import type { Settings } from '../worker/settings/store'

const N = Number(process.env.SAFETY_BENCH_N ?? 200)
const ROUNDS = Number(process.env.SAFETY_BENCH_ROUNDS ?? 7)
const WORDS = 5000
const PROMPT_BYTES = 100 * 1024

// mulberry32: a seeded PRNG whose consecutive outputs are not correlated (an LCG's are, and repeats words in the text).
let seed = 34
const rand = () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
const LATIN = 'abcdefghijklmnopqrstuvwxyz'
const CJK =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质'
const ENGLISH = ['the', 'model', 'answer', 'request', 'gateway', 'channel', 'price', 'token', 'stream', 'quota', 'system', 'please', 'explain', 'function', 'result', 'data']

function word(): string {
  if (rand() < 0.5) return Array.from({ length: 3 + Math.floor(rand() * 3) }, () => pick([...CJK])).join('')
  // Unlikely letter pairs, so the clean prompt holds none of them.
  return `${pick([...LATIN])}q${Array.from({ length: 3 + Math.floor(rand() * 6) }, () => pick([...LATIN])).join('')}`
}

function sentence(): string {
  if (rand() < 0.6) return `${Array.from({ length: 12 }, () => pick(ENGLISH)).join(' ')}. `
  return `${Array.from({ length: 30 }, () => pick([...CJK])).join('')}。`
}

/** A chat body of about PROMPT_BYTES UTF-8 bytes; `dirty` adds listed words and personal data. */
function chatBody(dirty: boolean): Record<string, unknown> {
  const messages: { role: string; content: string }[] = [{ role: 'system', content: 'You are a careful assistant.' }]
  let bytes = 0
  let text = ''
  while (bytes < PROMPT_BYTES) {
    let s = sentence()
    if (dirty && rand() < 0.02) s += ` ${pick(words)} mail a.b@example.com, call 13912345678, from 10.0.0.${Math.floor(rand() * 250)}. `
    text += s
    bytes += new TextEncoder().encode(s).length
    if (text.length > 4000) {
      messages.push({ role: messages.length % 2 ? 'user' : 'assistant', content: text })
      text = ''
    }
  }
  messages.push({ role: 'user', content: text })
  return { model: 'bench-model', messages }
}

const candidates = Array.from({ length: WORDS + 200 }, word)
const clean = chatBody(false)
// The clean prompt holds none of the words (a random text may hold a short one by chance).
const cleanText = JSON.stringify(clean).toLowerCase()
const words = candidates.filter((w) => !cleanText.includes(w)).slice(0, WORDS)
const listText = words.join('\n')
const dirty = chatBody(true)

function settings(values: Record<string, string>): Settings {
  const raw: Record<string, string> = { CheckSensitiveEnabled: 'true', CheckSensitiveOnPromptEnabled: 'true', SensitiveWords: listText, PiiMaskingGroups: '{}', ...values }
  return {
    str: (k: string) => raw[k] ?? '',
    bool: (k: string) => raw[k] === 'true',
    json: (k: string) => JSON.parse(raw[k] ?? '{}'),
  } as unknown as Settings
}

const input = (body: Record<string, unknown>): RelayInput => ({
  op: 'chat',
  model: 'bench-model',
  json: structuredClone(body),
  stream: false,
  includeUsage: false,
  n: 1,
  hasTools: false,
  promptEstimate: 0,
})

const buildStart = process.cpuUsage()
const built = new WordAutomaton(parseWordList(listText))
const buildUsage = process.cpuUsage(buildStart)
const buildMs = (buildUsage.user + buildUsage.system) / 1000

/**
 * Median and slowest round of the CPU milliseconds (process.cpuUsage: user + system, so waiting for
 * a core shared with other jobs does not count) `applyContentSafety` spends per request; the
 * round's copies of the body are made before its clock starts.
 */
function measure(body: Record<string, unknown>, s: Settings): { median: number; worst: number } {
  const run = () => {
    const copies = Array.from({ length: N }, () => input(body))
    const start = process.cpuUsage()
    for (const copy of copies) {
      try {
        applyContentSafety(copy, s, 'default')
      } catch {
        // refused: the cost until the first word is found
      }
    }
    const used = process.cpuUsage(start)
    return (used.user + used.system) / 1000 / N
  }
  run() // warm-up: JIT and the isolate's automaton
  const rounds = Array.from({ length: ROUNDS }, run).sort((a, b) => a - b)
  return { median: rounds[Math.floor(rounds.length / 2)]!, worst: rounds.at(-1)! }
}

const promptKb = (b: Record<string, unknown>) => (new TextEncoder().encode(JSON.stringify(b)).length / 1024).toFixed(0)
if (words.length !== WORDS || built.test(JSON.stringify(clean))) throw new Error('the word list or the clean prompt is not as intended')
const refuse = measure(clean, settings({ SensitiveWordsAction: 'refuse', PiiMaskingEnabled: 'false' }))
const mask = measure(dirty, settings({ SensitiveWordsAction: 'mask', PiiMaskingEnabled: 'true' }))
if (process.env.SAFETY_BENCH_SPLIT) {
  console.log('mask only', measure(dirty, settings({ SensitiveWordsAction: 'mask', PiiMaskingEnabled: 'false' })))
  console.log('pii only', measure(dirty, settings({ CheckSensitiveEnabled: 'false', PiiMaskingEnabled: 'true' })))
  console.log('refuse dirty-free walk', measure(clean, settings({ CheckSensitiveEnabled: 'false', PiiMaskingEnabled: 'false' })))
}
/** The dirty prompt's text streamed back as 20-character OpenAI chat chunks. */
const answerText = (dirty.messages as { content: string }[]).map((m) => m.content).join('')
const answerChunks: string[] = []
for (let at = 0; at < answerText.length; at += 20) {
  answerChunks.push(
    JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'bench-model',
      choices: [{ index: 0, delta: { content: answerText.slice(at, at + 20) }, finish_reason: null }],
    })
  )
}

/** Median CPU ms per streamed answer of `perAnswer` (rounds of N / 10 answers). */
function measureStream(perAnswer: () => void): number {
  const n = Math.max(1, Math.floor(N / 10))
  const run = () => {
    const start = process.cpuUsage()
    for (let i = 0; i < n; i++) perAnswer()
    const used = process.cpuUsage(start)
    return (used.user + used.system) / 1000 / n
  }
  run()
  return Array.from({ length: ROUNDS }, run).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
}
const reencode = measureStream(() => {
  for (const c of answerChunks) JSON.stringify(JSON.parse(c))
})
let streamMasked = 0
const filtered = measureStream(() => {
  const filter = new StreamOutputFilter(built)
  for (const c of answerChunks) filter.chunk(c)
  filter.end()
  streamMasked = filter.masked
})

const check = input(dirty)
applyContentSafety(check, settings({ SensitiveWordsAction: 'mask', PiiMaskingEnabled: 'true' }), 'default')
const counts = JSON.stringify(check.contentSafety)

const ms = (v: number) => v.toFixed(3)
const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
console.log(
  `build ${ms(buildMs)} ms; refuse scan ${ms(refuse.median)} ms (slowest ${ms(refuse.worst)}); mask + PII ${ms(mask.median)} ms (slowest ${ms(mask.worst)}); masked ${counts}; ` +
    `stream answer (${answerChunks.length} chunks): filter ${ms(filtered)} ms vs parse + re-encode ${ms(reencode)} ms (×${(filtered / reencode).toFixed(2)}), masked ${streamMasked}`
)
writeBlock(
  'safety',
  `## Content safety cost

Measured by \`npm run bench:safety\` (scripts/bench-content-safety.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpu} × ${os.cpus().length}, Node ${process.version} (V8, the engine workerd runs).
${WORDS} sensitive words (half CJK, half Latin), a chat prompt of ${promptKb(clean)} KB of JSON (about 60 % English and 40 % Chinese sentences in ${(clean.messages as unknown[]).length} messages), warm; process CPU time (user + system) per request, medians of ${ROUNDS} rounds of ${N} requests:

| target | measured | |
|---|---|---|
| Added CPU for a 100 KB prompt with 5,000 words < 2 ms (refuse mode, clean prompt: the full scan) | ${ms(refuse.median)} ms (slowest round ${ms(refuse.worst)} ms) | ${refuse.median < 2 ? 'met' : '**missed**'} |
| … mask mode with PII masking on (words, e-mails, phones, IPv4 in the prompt) | ${ms(mask.median)} ms (slowest round ${ms(mask.worst)} ms; masked ${counts.replaceAll('"', '')}) | ${mask.median < 2 ? 'met' : '**missed**'} |
| Answer filter on a stream: the same ${promptKb(dirty)} KB text as ${answerChunks.length} chunks of 20 characters (\`CheckSensitiveOnCompletionEnabled\`) | ${ms(filtered)} ms per answer (${ms((filtered * 1000) / answerChunks.length)} µs per chunk; ${streamMasked} words masked) against ${ms(reencode)} ms to parse and re-encode the chunks alone in the same run (× ${(filtered / reencode).toFixed(2)}) | |
| Automaton build, once per \`SensitiveWords\` value per isolate (the first request after a change; cold code, so an upper figure) | ${ms(buildMs)} ms | |
`
)
process.exit(0)
