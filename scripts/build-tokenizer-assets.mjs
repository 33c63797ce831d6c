#!/usr/bin/env node
/**
 * Writes the BPE rank tables of js-tiktoken (o200k_base, cl100k_base) as JSON into the console's
 * static assets (console/dist/tokenizer/). The Worker loads them from ASSETS on first need, so
 * several megabytes of ranks stay out of the Worker bundle. Run after every console build (a plugin in console/vite.config.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export async function writeTokenizerAssets(dist = path.join(root, 'console/dist')) {
  const out = path.join(dist, 'tokenizer')
  mkdirSync(out, { recursive: true })
  for (const name of ['o200k_base', 'cl100k_base']) {
    const { default: ranks } = await import(`js-tiktoken/ranks/${name}`)
    writeFileSync(path.join(out, `${name}.json`), JSON.stringify(ranks))
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await writeTokenizerAssets()
