#!/usr/bin/env node
/**
 * Writes the BPE rank tables of js-tiktoken (o200k_base, cl100k_base) as JSON into the console's
 * static assets (console/dist/tokenizer/). The Worker loads them from ASSETS on first need, so
 * several megabytes of ranks stay out of the Worker bundle. Run by `npm run build`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const out = path.join(root, 'console/dist/tokenizer')
mkdirSync(out, { recursive: true })
for (const name of ['o200k_base', 'cl100k_base']) {
  const { default: ranks } = await import(`js-tiktoken/ranks/${name}`)
  writeFileSync(path.join(out, `${name}.json`), JSON.stringify(ranks))
}
console.log(`tokenizer ranks written to ${path.relative(root, out)}`)
