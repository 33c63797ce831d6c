/**
 * The sensitive-word automaton against a naive matcher on seeded random texts (detection and the
 * masked output), with case folding, CJK, overlapping words and surrogate pairs.
 */
import { describe, expect, it } from 'vitest'
import { parseWordList, WordAutomaton } from './word-automaton'

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Same per-code-unit folding contract as the automaton, written the slow way. */
const foldNaive = (s: string) =>
  Array.from({ length: s.length }, (_, i) => {
    const ch = s[i]!
    const lower = ch.toLowerCase()
    return lower.length === 1 ? lower : ch
  }).join('')

function naiveMask(text: string, words: string[], replacement = '***') {
  const folded = foldNaive(text)
  const hit = new Uint8Array(text.length)
  for (const w of words) {
    const fw = foldNaive(w)
    for (let at = folded.indexOf(fw); at >= 0; at = folded.indexOf(fw, at + 1)) hit.fill(1, at, at + fw.length)
  }
  let out = ''
  let count = 0
  for (let i = 0; i < text.length; i++) {
    if (!hit[i]) out += text[i]
    else if (i === 0 || !hit[i - 1]) {
      out += replacement
      count++
    }
  }
  return { text: out, count }
}

const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'C', 'é', 'É', '敏', '感', '词', ' ', 'Ω', 'ω', '😀']

function randomString(next: () => number, min: number, max: number) {
  const n = min + Math.floor(next() * (max - min + 1))
  let s = ''
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)]
  return s
}

describe('WordAutomaton', () => {
  it('agrees with a naive matcher on 2,000 seeded random texts and word lists', () => {
    const next = rng(34)
    for (let round = 0; round < 2000; round++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 8) }, () => randomString(next, 1, 4))
      const text = randomString(next, 0, 60)
      const automaton = new WordAutomaton(words)
      const expected = naiveMask(text, words)
      expect(automaton.test(text), `${JSON.stringify(words)} in ${JSON.stringify(text)}`).toBe(expected.count > 0)
      expect(automaton.mask(text), `${JSON.stringify(words)} in ${JSON.stringify(text)}`).toEqual(expected)
    }
  })

  it('matches case-insensitively, Latin with accents and Greek included', () => {
    const automaton = new WordAutomaton(['Forbidden', 'ÉCOLE', 'ωμέγα'])
    expect(automaton.test('this is FORBIDDEN text')).toBe(true)
    expect(automaton.test('une école ici')).toBe(true)
    expect(automaton.test('ΩΜΈΓΑ')).toBe(true)
    expect(automaton.test('forbidde n')).toBe(false)
    expect(automaton.mask('ForBidden, forbidden!').text).toBe('***, ***!')
  })

  it('finds CJK words inside running text and masks them', () => {
    const automaton = new WordAutomaton(parseWordList('敏感词\n违禁\n\n  违禁  \n'))
    expect(automaton.size).toBe(2)
    expect(automaton.test('这是一段包含敏感词的文字')).toBe(true)
    expect(automaton.test('这是一段正常的文字')).toBe(false)
    expect(automaton.mask('含违禁内容和敏感词。')).toEqual({ text: '含***内容和***。', count: 2 })
  })

  it('merges overlapping and nested occurrences into one span', () => {
    const automaton = new WordAutomaton(['abc', 'bcd', 'c', 'xabcdy'])
    expect(automaton.mask('zabcdz')).toEqual({ text: 'z***z', count: 1 })
    expect(automaton.mask('xabcdy!')).toEqual({ text: '***!', count: 1 })
    expect(automaton.mask('c c')).toEqual({ text: '*** ***', count: 2 })
  })

  it('keeps characters whose lower case is longer as they are, so positions never move', () => {
    const automaton = new WordAutomaton(['İstanbul'])
    expect(automaton.mask('İSTANBUL and İstanbul').text).toBe('*** and ***')
  })

  it('does nothing with an empty list', () => {
    const automaton = new WordAutomaton(parseWordList('\n \n'))
    expect(automaton.test('anything')).toBe(false)
    expect(automaton.mask('anything')).toEqual({ text: 'anything', count: 0 })
  })
})
