/**
 * Shared list mechanics for the management API: the query schema (p, page_size, order, keyword),
 * a whitelisted `order` → ORDER BY mapping (`-field` = descending, own keys only; a prototype name
 * such as `__proto__` or `constructor` is a 400, another unknown field the default order) and the page envelope
 * `{data, page, size, total_count}` used by every list (one-hub's shape).
 */
import { asc, desc, sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import { z } from 'zod'
import type { Page } from '../../shared/contract/paging'
import { badRequest } from './errors'

export const listQuery = z.object({
  p: z.coerce.number().int().min(1, 'must be at least 1').max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(10),
  order: z.string().trim().max(40).optional(),
  keyword: z.string().trim().max(200).optional(),
})

export type ListQuery = z.infer<typeof listQuery>

export function orderBy(order: string | undefined, columns: Record<string, SQLiteColumn>, fallback: SQL): SQL {
  if (!order) return fallback
  const descending = order.startsWith('-')
  const field = descending ? order.slice(1) : order
  // Own keys only: `?order=__proto__` or `constructor` must not reach Object.prototype; such a
  // name is never a column, so it is refused outright (other unknown fields keep the default order).
  if (!Object.hasOwn(columns, field)) {
    if (field in Object.prototype) throw badRequest('order: is not a sortable field', { fields: { order: 'is not a sortable field' } })
    return fallback
  }
  const column = columns[field]
  if (!column) return fallback
  return descending ? desc(column) : asc(column)
}

export type PageResult<T> = Page<T>

export const page = <T>(q: ListQuery, data: T[], total: number): PageResult<T> => ({ data, page: q.p, size: q.page_size, total_count: total })

export const offset = (q: ListQuery) => (q.p - 1) * q.page_size

/** `column LIKE %text%` with the user's wildcards escaped. */
export const contains = (column: SQLiteColumn, text: string): SQL => sql`${column} LIKE ${`%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`} ESCAPE '\\'`
