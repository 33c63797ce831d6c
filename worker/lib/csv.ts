/**
 * CSV downloads (log and order exports): one cell as a spreadsheet reads it safely (quoted when
 * needed, a leading = + - @ neutralised so no formula runs) and the attachment response.
 */

export const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v)
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** Unix seconds as an ISO time (empty for 0: not happened). */
export const csvTime = (seconds: number) => (seconds > 0 ? new Date(seconds * 1000).toISOString() : '')

/** A CSV attachment named `<name>-<today>.csv`. */
export const csvResponse = (body: ReadableStream<Uint8Array> | string, name: string) =>
  new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
    },
  })
