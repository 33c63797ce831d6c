/**
 * BENCHMARKS.md is written by several scripts; each owns one block between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, replaced in place (or appended) so a script
 * never erases another's figures.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../BENCHMARKS.md')
const ORDER = ['main', 'stack', 'analysis', 'profile', 'scale']

export function writeBlock(name, markdown) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n'
  const blocks = new Map()
  for (const m of text.matchAll(/<!-- bench:([a-z-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) blocks.set(m[1], m[2])
  blocks.set(name, `${markdown.trimEnd()}\n`)
  const names = [...ORDER.filter((n) => blocks.has(n)), ...[...blocks.keys()].filter((n) => !ORDER.includes(n))]
  const body = names.map((n) => `<!-- bench:${n} -->\n${blocks.get(n)}<!-- /bench:${n} -->`).join('\n\n')
  writeFileSync(file, `# Benchmarks\n\n${body}\n`)
}
