/**
 * The sensitive-word matcher: an Aho–Corasick automaton over UTF-16 code units, case-insensitive,
 * linear in the text whatever the number of words. Pure (no I/O); content-safety.ts builds one per
 * `SensitiveWords` value and keeps it for the isolate.
 *
 * Case folding is per code unit and never changes a string's length (a character whose lower case
 * is longer, such as U+0130, stays as it is), so positions in the folded text are positions in the
 * original one and a match can be masked in place. CJK and other caseless scripts match as typed.
 *
 * Layout: the words' distinct (folded) code units get dense symbol ids; goto edges live in one
 * open-addressed hash table of (state, symbol) → state; a code unit that is in no word resets the
 * scan to the root without a lookup. Each state keeps the length of the longest word that ends there
 * (through its failure chain), which is all masking and detection need.
 */

/** Lower case of a code unit when it is one code unit too; lazily filled for non-ASCII. */
const FOLD = new Uint16Array(0x10000)
const FOLD_READY = new Uint8Array(0x10000)

function fold(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 32 : c
  if (FOLD_READY[c]) return FOLD[c]!
  // Surrogate halves are folded as themselves (astral case pairs are rare and need both halves).
  const lower = c >= 0xd800 && c < 0xe000 ? String.fromCharCode(c) : String.fromCharCode(c).toLowerCase()
  const folded = lower.length === 1 ? lower.charCodeAt(0) : c
  FOLD[c] = folded
  FOLD_READY[c] = 1
  return folded
}

/** The words of a `SensitiveWords` setting: one per line, trimmed, empty lines and duplicates dropped. */
export function parseWordList(text: string): string[] {
  const seen = new Set<string>()
  for (const line of text.split(/\r?\n/)) {
    const word = line.trim()
    if (word) seen.add(word)
  }
  return [...seen]
}

export class WordAutomaton {
  /** Dense symbol of each folded code unit (0: in no word). */
  private readonly symbols = new Int32Array(0x10000)
  /** Dense symbol of each raw code unit, filled on first sight (-1: not yet looked up). */
  private readonly rawSymbols = new Int32Array(0x10000).fill(-1)
  /** The root's transitions by symbol (the state most characters are read in). */
  private readonly rootNext: Int32Array
  private readonly fail: Int32Array
  /** Length of the longest word ending at this state (0: none). */
  private readonly longest: Int32Array
  private readonly edgeState: Int32Array
  private readonly edgeSymbol: Int32Array
  private readonly edgeTarget: Int32Array
  private readonly slotMask: number
  private readonly slotShift: number
  readonly size: number
  /** Length of the longest word (0 when there are none). */
  readonly longestWord: number

  constructor(words: readonly string[]) {
    let symbolCount = 0
    const folded: number[][] = []
    for (const w of words) {
      if (w.length === 0) continue
      const units: number[] = []
      for (let i = 0; i < w.length; i++) units.push(fold(w.charCodeAt(i)))
      folded.push(units)
    }
    let nodes = 1
    let longestWord = 0
    for (const w of folded) {
      nodes += w.length
      longestWord = Math.max(longestWord, w.length)
    }
    this.longestWord = longestWord
    for (const w of folded) for (const c of w) if (this.symbols[c] === 0) this.symbols[c] = ++symbolCount
    this.size = folded.length

    // A sparse table (load ≤ 1/4) keeps a missed lookup — the common case — to a probe or two.
    let capacity = 16
    while (capacity < nodes * 4) capacity *= 2
    this.slotMask = capacity - 1
    this.slotShift = 32 - Math.log2(capacity)
    this.edgeState = new Int32Array(capacity).fill(-1)
    this.edgeSymbol = new Int32Array(capacity)
    this.edgeTarget = new Int32Array(capacity)
    const depth = new Int32Array(nodes)
    const terminal = new Uint8Array(nodes)
    const children: number[][] = [[]]
    let count = 1
    for (const w of folded) {
      let state = 0
      for (const c of w) {
        const sym = this.symbols[c]!
        let next = this.goto(state, sym)
        if (next < 0) {
          next = count++
          children.push([])
          depth[next] = depth[state]! + 1
          this.addEdge(state, sym, next)
          children[state]!.push(sym, next)
        }
        state = next
      }
      terminal[state] = 1
    }

    this.rootNext = new Int32Array(symbolCount + 1)
    const rootEdges = children[0]!
    for (let i = 0; i < rootEdges.length; i += 2) this.rootNext[rootEdges[i]!] = rootEdges[i + 1]!

    // Breadth-first failure links; `longest` follows the failure chain.
    this.fail = new Int32Array(count)
    this.longest = new Int32Array(count)
    const queue = new Int32Array(count)
    let head = 0
    let tail = 0
    for (let i = 0; i < rootEdges.length; i += 2) {
      const child = rootEdges[i + 1]!
      this.fail[child] = 0
      this.longest[child] = terminal[child] ? depth[child]! : 0
      queue[tail++] = child
    }
    while (head < tail) {
      const state = queue[head++]!
      const edges = children[state]!
      for (let i = 0; i < edges.length; i += 2) {
        const sym = edges[i]!
        const child = edges[i + 1]!
        let f = this.fail[state]!
        while (f > 0 && this.goto(f, sym) < 0) f = this.fail[f]!
        const target = this.goto(f, sym)
        const link = target >= 0 && target !== child ? target : 0
        this.fail[child] = link
        this.longest[child] = terminal[child] ? depth[child]! : this.longest[link]!
        queue[tail++] = child
      }
    }
  }

  private slot(state: number, sym: number): number {
    // Multiplicative hashing keeps the well-mixed high bits (low bits of a product cluster under linear probing).
    return Math.imul(Math.imul(state, 0x85ebca6b) ^ sym, 0x9e3779b1) >>> this.slotShift
  }

  private goto(state: number, sym: number): number {
    let i = this.slot(state, sym)
    for (;;) {
      const s = this.edgeState[i]!
      if (s < 0) return -1
      if (s === state && this.edgeSymbol[i] === sym) return this.edgeTarget[i]!
      i = (i + 1) & this.slotMask
    }
  }

  private addEdge(state: number, sym: number, target: number) {
    let i = this.slot(state, sym)
    while (this.edgeState[i]! >= 0) i = (i + 1) & this.slotMask
    this.edgeState[i] = state
    this.edgeSymbol[i] = sym
    this.edgeTarget[i] = target
  }

  /**
   * Calls `onMatch(end, length)` for each position where a word ends (the longest word ending
   * there); stops early when it returns true.
   */
  private scan(text: string, onMatch: (end: number, length: number) => boolean | undefined): void {
    if (this.size === 0) return
    const raw = this.rawSymbols
    const rootNext = this.rootNext
    const fail = this.fail
    const longest = this.longest
    let state = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      let sym = raw[c]!
      if (sym < 0) sym = raw[c] = this.symbols[fold(c)]!
      if (sym === 0) {
        state = 0
        continue
      }
      let next = -1
      while (state > 0) {
        next = this.goto(state, sym)
        if (next >= 0) break
        state = fail[state]!
      }
      state = next >= 0 ? next : rootNext[sym]!
      const len = longest[state]!
      if (len > 0 && onMatch(i, len)) return
    }
  }

  /** Whether any word occurs in `text`. */
  test(text: string): boolean {
    let found = false
    this.scan(text, () => (found = true))
    return found
  }

  /**
   * The earliest start of an occurrence that begins before `cut` and ends at or after it, or `cut`
   * when none straddles it (where a stream may split `text` without cutting a word in two).
   */
  startCrossing(text: string, cut: number): number {
    let earliest = cut
    this.scan(text, (end, length) => {
      const start = end - length + 1
      if (start < cut && end >= cut && start < earliest) earliest = start
      return false
    })
    return earliest
  }

  /**
   * `text` with every occurrence of a word replaced by `replacement` (overlapping or adjacent
   * occurrences become one), and how many such spans there were.
   */
  mask(text: string, replacement = '***'): { text: string; count: number } {
    const spans: number[] = []
    this.scan(text, (end, length) => {
      let start = end - length + 1
      // Spans arrive by end position; earlier spans this one overlaps or touches merge into it.
      while (spans.length > 0 && start <= spans[spans.length - 1]! + 1) {
        start = Math.min(start, spans[spans.length - 2]!)
        spans.length -= 2
      }
      spans.push(start, end)
      return false
    })
    if (spans.length === 0) return { text, count: 0 }
    let out = ''
    let at = 0
    for (let i = 0; i < spans.length; i += 2) {
      out += text.slice(at, spans[i]) + replacement
      at = spans[i + 1]! + 1
    }
    return { text: out + text.slice(at), count: spans.length / 2 }
  }
}
