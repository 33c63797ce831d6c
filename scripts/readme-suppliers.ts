/** Writes the supplier table into README.md from the channel-type registry (`npm run readme:suppliers`). */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { withSupplierTable } from '../worker/providers/supplier-table'

const file = path.resolve(import.meta.dirname, '..', 'README.md')
const before = readFileSync(file, 'utf8')
const after = withSupplierTable(before)
if (after !== before) writeFileSync(file, after)
console.log(after === before ? 'README.md supplier table is up to date' : 'README.md supplier table updated')
