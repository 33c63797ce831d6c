/**
 * Cutting an import's table writes into request-sized batches for POST /api/import/batch, and
 * placing the built-in price table before the imported prices. Imports only wire.ts, so the
 * console page uses it as it is.
 */
import type { WireWrite } from './wire'

/** Keeps each request under the management API's 2 MB body limit with room to spare. */
export const MAX_BATCH_BYTES = 900_000
const MAX_BATCH_ROWS = 5_000

/** The built-in prices go in just before the imported ones (which then win), as the CLI does. */
export function insertDefaultPrices(writes: WireWrite[], defaults: WireWrite): WireWrite[] {
  const at = writes.findIndex((w) => w.table === 'prices')
  const out = [...writes]
  out.splice(at < 0 ? out.length : at, 0, defaults)
  return out
}

/**
 * Cuts the writes into batches of at most `maxBytes` of JSON. A write split over several batches
 * clears the abilities with its first slice only; the derived steps run after each slice (they
 * recompute from the table, so the last run leaves the complete result).
 */
export function wireBatches(writes: WireWrite[], maxBytes = MAX_BATCH_BYTES): WireWrite[][] {
  const out: WireWrite[][] = []
  let current: WireWrite[] = []
  let size = 0
  const flush = () => {
    if (current.length) out.push(current)
    current = []
    size = 0
  }
  for (const w of writes) {
    const head = JSON.stringify({ ...w, rows: [] }).length
    let slice: WireWrite = { ...w, rows: [] }
    let sliceSize = head
    const push = () => {
      if (size + sliceSize > maxBytes) flush()
      current.push(slice)
      size += sliceSize
    }
    if (w.rows.length === 0) {
      push()
      continue
    }
    for (const row of w.rows) {
      const n = JSON.stringify(row).length + 1
      if (slice.rows.length > 0 && (sliceSize + n > maxBytes || slice.rows.length >= MAX_BATCH_ROWS)) {
        push()
        flush()
        const { clearAbilitiesOf: _, ...rest } = w
        slice = { ...rest, rows: [] }
        sliceSize = head
      }
      slice.rows.push(row)
      sliceSize += n
    }
    push()
  }
  flush()
  return out
}
