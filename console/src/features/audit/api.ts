/**
 * Audit page calls: the list (GET /api/audit/, administrators under the rank rule) and the CSV
 * export link of the same filters (/api/audit/export, a step-up action).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { apiUrl } from '@/lib/api-origin'
import type { Page } from '@contract/paging'
import type { AuditRow } from '@contract/audit'

export type { AuditChange, AuditRow } from '@contract/audit'

/** The audit page's URL state. */
export interface AuditSearch {
  p?: number
  page_size?: number
  actor?: string
  action?: string
  target_type?: string
  target_id?: string
  start_timestamp?: number
  end_timestamp?: number
}

export const FILTER_KEYS = ['actor', 'action', 'target_type', 'target_id', 'start_timestamp', 'end_timestamp'] as const

export const auditFilters = (search: AuditSearch) => Object.fromEntries(FILTER_KEYS.map((k) => [k, search[k]]).filter(([, v]) => v !== undefined && v !== ''))

export const auditKeys = { all: ['audit'] as const, list: (search: AuditSearch) => ['audit', 'list', search] as const }

export const auditQueryOptions = (search: AuditSearch) =>
  queryOptions({
    queryKey: auditKeys.list(search),
    queryFn: ({ signal }) => api.get<Page<AuditRow>>('/api/audit/', { p: search.p, page_size: search.page_size, ...auditFilters(search) }, signal),
    placeholderData: keepPreviousData,
  })

/** The CSV download of the filtered rows (same-origin GET with the session cookie). */
export function auditExportUrl(search: AuditSearch): string {
  const qs = new URLSearchParams(Object.entries(auditFilters(search)).map(([k, v]) => [k, String(v)])).toString()
  return apiUrl(`/api/audit/export${qs ? `?${qs}` : ''}`)
}
