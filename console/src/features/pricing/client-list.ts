/**
 * Lists the server returns whole (prices, groups, available models) shown through the shared
 * server-table kit: the URL keeps page, page size and order as for any list; this module sorts and
 * slices the already filtered rows for the current page.
 */
import { DEFAULT_PAGE_SIZE, type ListSearch } from '@/components/data-table'

type Comparable = string | number | boolean | null | undefined

const compare = (a: Comparable, b: Comparable) => {
  if (a === b) return 0
  if (a === null || a === undefined) return 1
  if (b === null || b === undefined) return -1
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b)
  return a < b ? -1 : 1
}

/**
 * Sort by `order` (`field` or `-field`, fields read through `sortKeys`), then cut the page. `page`
 * is the page actually shown: past the end (after deletes or a narrower filter) it is the last one.
 */
export function pageOf<T>(rows: T[], search: ListSearch, sortKeys: Record<string, (row: T) => Comparable>): { rows: T[]; total: number; page: number } {
  let sorted = rows
  const order = search.order
  const field = order?.replace(/^-/, '')
  const key = field ? sortKeys[field] : undefined
  if (key) {
    const dir = order!.startsWith('-') ? -1 : 1
    sorted = [...rows].sort((a, b) => dir * compare(key(a), key(b)))
  }
  const size = search.page_size ?? DEFAULT_PAGE_SIZE
  const pages = Math.max(1, Math.ceil(sorted.length / size))
  const page = Math.min(Math.max(1, search.p ?? 1), pages)
  return { rows: sorted.slice((page - 1) * size, page * size), total: sorted.length, page }
}

export const includesText = (value: string, keyword: string | undefined) => !keyword || value.toLowerCase().includes(keyword.toLowerCase())
