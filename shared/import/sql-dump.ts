/**
 * Reads a mysqldump or `pg_dump` text into tables of rows. A tokenizer that knows SQL quoting
 * (MySQL backslash escapes, PostgreSQL '' and E'…' strings, backtick and double-quoted names,
 * comments including MySQL's /*! … *\/) feeds a small parser of the three statements a dump holds
 * data in: CREATE TABLE (column order, for INSERTs without a column list), INSERT … VALUES and
 * PostgreSQL's COPY … FROM stdin. Every other statement (SET, LOCK, DROP, ALTER, …) is skipped.
 */

export type SqlValue = string | number | boolean | null
export type Row = Record<string, SqlValue>
export type Dialect = 'mysql' | 'postgres'

export interface DumpTable {
  columns: string[]
  rows: Row[]
}

export interface ParsedDump {
  dialect: Dialect
  tables: Map<string, DumpTable>
  /** Statements or rows that could not be read, with where they are. */
  problems: string[]
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'ident'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string }

const MYSQL_ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' }

export function detectDialect(text: string): Dialect {
  const head = text.slice(0, 4096)
  if (/PostgreSQL database dump|standard_conforming_strings|pg_catalog/i.test(head)) return 'postgres'
  return 'mysql'
}

class Lexer {
  pos = 0
  line = 1
  constructor(
    readonly src: string,
    readonly dialect: Dialect
  ) {}

  private fail(message: string): never {
    throw new Error(`line ${this.line}: ${message}`)
  }

  private advance(n: number) {
    for (let i = 0; i < n; i++) if (this.src.charCodeAt(this.pos + i) === 10) this.line++
    this.pos += n
  }

  /** The next token, or undefined at the end of the text. */
  next(): Token | undefined {
    const s = this.src
    for (;;) {
      const c = s[this.pos]
      if (c === undefined) return undefined
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.advance(1)
      } else if (c === '-' && s[this.pos + 1] === '-') {
        const end = s.indexOf('\n', this.pos)
        this.advance((end < 0 ? s.length : end) - this.pos)
      } else if (c === '#' && this.dialect === 'mysql') {
        const end = s.indexOf('\n', this.pos)
        this.advance((end < 0 ? s.length : end) - this.pos)
      } else if (c === '/' && s[this.pos + 1] === '*') {
        const end = s.indexOf('*/', this.pos + 2)
        if (end < 0) this.fail('unterminated comment')
        this.advance(end + 2 - this.pos)
      } else break
    }
    const c = s[this.pos]!
    const start = this.pos
    if (c === "'") return { kind: 'string', text: this.quoted("'", this.dialect === 'mysql') }
    if ((c === 'E' || c === 'e') && s[this.pos + 1] === "'") {
      this.advance(1)
      return { kind: 'string', text: this.quoted("'", true) }
    }
    if ((c === 'X' || c === 'x') && s[this.pos + 1] === "'") {
      this.advance(1)
      return { kind: 'string', text: hexText(this.quoted("'", false)) }
    }
    if (c === '`' || c === '"') return { kind: 'ident', text: this.quoted(c, false) }
    if (c === '0' && (s[this.pos + 1] === 'x' || s[this.pos + 1] === 'X')) {
      const m = /^0x[0-9a-f]*/i.exec(s.slice(this.pos, this.pos + 1_000_000))!
      this.advance(m[0].length)
      return { kind: 'string', text: hexText(m[0].slice(2)) }
    }
    if (/[0-9.]/.test(c) && /[0-9]/.test(c === '.' ? (s[this.pos + 1] ?? '') : c)) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(s.slice(this.pos, this.pos + 64))!
      this.advance(m[0].length)
      return { kind: 'number', text: m[0] }
    }
    if (/[A-Za-z_$]/.test(c)) {
      let end = this.pos + 1
      while (end < s.length && /[A-Za-z0-9_$]/.test(s[end]!)) end++
      this.advance(end - start)
      return { kind: 'word', text: s.slice(start, end) }
    }
    if (c === ':' && s[this.pos + 1] === ':') {
      this.advance(2)
      return { kind: 'punct', text: '::' }
    }
    this.advance(1)
    return { kind: 'punct', text: c }
  }

  /** A quoted string or name starting at `pos`; the quote doubled stands for itself. */
  private quoted(quote: string, backslashEscapes: boolean): string {
    const s = this.src
    let i = this.pos + 1
    let out = ''
    let from = i
    for (;;) {
      const c = s[i]
      if (c === undefined) this.fail(`unterminated ${quote} quote`)
      if (c === '\\' && backslashEscapes) {
        out += s.slice(from, i)
        const e = s[i + 1]
        if (e === undefined) this.fail('unterminated escape')
        // MySQL keeps the backslash of \% and \_ (they are LIKE escapes).
        out += MYSQL_ESCAPES[e] ?? (e === '%' || e === '_' ? '\\' + e : e)
        i += 2
        from = i
      } else if (c === quote) {
        if (s[i + 1] === quote) {
          out += s.slice(from, i + 1)
          i += 2
          from = i
        } else {
          out += s.slice(from, i)
          this.advance(i + 1 - this.pos)
          return out
        }
      } else i++
    }
  }

  /** Raw text lines after a COPY … FROM stdin; up to the `\.` line. */
  copyLines(): string[] {
    const s = this.src
    // The rest of the COPY statement's line (after its ';') is not data.
    const eol = s.indexOf('\n', this.pos)
    this.advance((eol < 0 ? s.length : eol + 1) - this.pos)
    const lines: string[] = []
    for (;;) {
      if (this.pos >= s.length) this.fail('COPY data without its terminating \\.')
      const end = s.indexOf('\n', this.pos)
      const line = s.slice(this.pos, end < 0 ? s.length : end).replace(/\r$/, '')
      this.advance((end < 0 ? s.length : end + 1) - this.pos)
      if (line === '\\.') return lines
      lines.push(line)
    }
  }
}

function hexText(hex: string): string {
  return Buffer.from(hex, 'hex').toString('utf8')
}

const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toUpperCase() === w
const isPunct = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.text === p

function numberValue(text: string, negative: boolean): SqlValue {
  const n = Number(text)
  if (/^\d+$/.test(text) && !Number.isSafeInteger(n)) return (negative ? '-' : '') + text
  return negative ? -n : n
}

/** `schema.table` or `table`, quoted or not → the bare table name in lower case. */
function tableName(tokens: Token[], at: number): { name: string; next: number } {
  let i = at
  let name = ''
  for (;;) {
    const t = tokens[i]
    if (!t || (t.kind !== 'word' && t.kind !== 'ident')) throw new Error('expected a table name')
    name = t.text
    i++
    if (isPunct(tokens[i], '.')) i++
    else break
  }
  return { name: name.toLowerCase(), next: i }
}

const CONSTRAINT_WORDS = new Set(['PRIMARY', 'KEY', 'UNIQUE', 'INDEX', 'CONSTRAINT', 'FOREIGN', 'CHECK', 'FULLTEXT', 'SPATIAL', 'EXCLUDE'])

function parseCreateTable(tokens: Token[], tables: Map<string, DumpTable>) {
  let i = 2
  if (isWord(tokens[i], 'IF')) i += 3 // IF NOT EXISTS
  const { name, next } = tableName(tokens, i)
  if (!isPunct(tokens[next], '(')) return
  const columns: string[] = []
  let depth = 0
  let startOfDef = true
  for (let j = next + 1; j < tokens.length; j++) {
    const t = tokens[j]!
    if (isPunct(t, '(')) depth++
    else if (isPunct(t, ')')) {
      if (depth-- === 0) break
    } else if (isPunct(t, ',') && depth === 0) {
      startOfDef = true
      continue
    } else if (startOfDef && (t.kind === 'ident' || (t.kind === 'word' && !CONSTRAINT_WORDS.has(t.text.toUpperCase())))) {
      columns.push(t.text)
    }
    startOfDef = false
  }
  const existing = tables.get(name)
  if (existing) existing.columns = columns
  else tables.set(name, { columns, rows: [] })
}

/** One literal of a VALUES tuple starting at `i`, with its sign, cast or charset prefix. */
function literal(tokens: Token[], i: number): { value: SqlValue; next: number } {
  let t = tokens[i]
  let negative = false
  if (isPunct(t, '-') || isPunct(t, '+')) {
    negative = t!.text === '-'
    t = tokens[++i]
  }
  // MySQL charset introducers: _binary '…', _utf8mb4 '…'.
  if (t?.kind === 'word' && t.text.startsWith('_') && tokens[i + 1]?.kind === 'string') t = tokens[++i]
  let value: SqlValue
  if (!t) throw new Error('a VALUES tuple ends early')
  if (t.kind === 'number') value = numberValue(t.text, negative)
  else if (t.kind === 'string') value = t.text
  else if (isWord(t, 'NULL')) value = null
  else if (isWord(t, 'TRUE')) value = true
  else if (isWord(t, 'FALSE')) value = false
  else throw new Error(`unexpected ${t.text} in VALUES`)
  i++
  // PostgreSQL casts: '…'::timestamp with time zone, '{…}'::jsonb, 1::bigint
  while (isPunct(tokens[i], '::')) {
    i++
    for (;;) {
      const c = tokens[i]
      if (c?.kind === 'word' || c?.kind === 'ident' || isPunct(c, '[') || isPunct(c, ']')) i++
      else if (isPunct(c, '(')) {
        while (tokens[i] && !isPunct(tokens[i], ')')) i++
        i++
      } else break
    }
  }
  return { value, next: i }
}

function parseInsert(tokens: Token[], tables: Map<string, DumpTable>, problems: string[], line: number) {
  let i = 1
  while (isWord(tokens[i], 'IGNORE') || isWord(tokens[i], 'LOW_PRIORITY') || isWord(tokens[i], 'DELAYED')) i++
  if (isWord(tokens[i], 'INTO')) i++
  const { name, next } = tableName(tokens, i)
  i = next
  const table = tables.get(name) ?? { columns: [], rows: [] }
  tables.set(name, table)
  let columns = table.columns
  if (isPunct(tokens[i], '(')) {
    columns = []
    for (i++; !isPunct(tokens[i], ')'); i++) {
      const t = tokens[i]
      if (!t) throw new Error('unterminated column list')
      if (t.kind === 'word' || t.kind === 'ident') columns.push(t.text)
    }
    i++
  }
  if (!isWord(tokens[i], 'VALUES')) throw new Error(`INSERT INTO ${name} without VALUES`)
  i++
  while (isPunct(tokens[i], '(')) {
    i++
    const values: SqlValue[] = []
    while (!isPunct(tokens[i], ')')) {
      const { value, next: after } = literal(tokens, i)
      values.push(value)
      i = after
      if (isPunct(tokens[i], ',')) i++
      else if (!isPunct(tokens[i], ')')) throw new Error(`unexpected ${tokens[i]?.text ?? 'end'} in a VALUES tuple`)
    }
    i++
    if (values.length !== columns.length) {
      problems.push(`${name} (statement near line ${line}): a row has ${values.length} values for ${columns.length} columns; skipped`)
    } else {
      const row: Row = {}
      columns.forEach((c, k) => (row[c] = values[k]!))
      table.rows.push(row)
    }
    if (isPunct(tokens[i], ',')) i++
    else break
  }
}

const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' }

function copyField(field: string): SqlValue {
  if (field === '\\N') return null
  return field.replace(/\\(.)/g, (_, e: string) => COPY_ESCAPES[e] ?? e)
}

/** Parses a whole dump. Statements that fail to parse are reported in `problems`, not thrown. */
export function parseDump(text: string, dialect: Dialect = detectDialect(text)): ParsedDump {
  const lexer = new Lexer(text, dialect)
  const tables = new Map<string, DumpTable>()
  const problems: string[] = []
  let statement: Token[] = []
  let line = lexer.line
  for (;;) {
    let t: Token | undefined
    try {
      t = lexer.next()
    } catch (e) {
      // Past a quoting error nothing can be trusted: stop, and say where.
      problems.push(`the dump cannot be read past ${(e as Error).message}; the rest was not imported`)
      break
    }
    if (t && !isPunct(t, ';')) {
      if (statement.length === 0) line = lexer.line
      statement.push(t)
      continue
    }
    if (statement.length > 0) {
      const first = statement[0]!.kind === 'word' ? statement[0]!.text.toUpperCase() : ''
      try {
        if (first === 'CREATE' && isWord(statement[1], 'TABLE')) parseCreateTable(statement, tables)
        else if (first === 'INSERT' || first === 'REPLACE') parseInsert(statement, tables, problems, line)
        else if (first === 'COPY' && statement.some((s) => isWord(s, 'STDIN'))) {
          const { name, next } = tableName(statement, 1)
          const columns: string[] = []
          if (isPunct(statement[next], '(')) {
            for (let j = next + 1; !isPunct(statement[j], ')') && j < statement.length; j++) {
              const c = statement[j]!
              if (c.kind === 'word' || c.kind === 'ident') columns.push(c.text)
            }
          }
          const table = tables.get(name) ?? { columns, rows: [] }
          tables.set(name, table)
          const cols = columns.length ? columns : table.columns
          for (const l of lexer.copyLines()) {
            const fields = l.split('\t')
            if (fields.length !== cols.length) {
              problems.push(`${name} (COPY near line ${line}): a row has ${fields.length} fields for ${cols.length} columns; skipped`)
              continue
            }
            const row: Row = {}
            cols.forEach((c, k) => (row[c] = copyField(fields[k]!)))
            table.rows.push(row)
          }
        }
      } catch (e) {
        problems.push(`statement near line ${line} (${first || '?'}): ${(e as Error).message}; skipped`)
      }
      statement = []
    }
    if (!t) break
  }
  return { dialect, tables, problems }
}
