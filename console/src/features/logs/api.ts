/**
 * Log page calls: the list (admins GET /api/log/, everyone GET /api/log/self), the quota sum of the
 * same filters (/stat), the CSV export link (/export) and, for root, deleting logs before a date
 * (DELETE /api/log/?target_timestamp=). The list's count is capped by the server (total_capped).
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api, request } from '@/lib/api-client'
import { quotaPerUnit, renderQuota } from '@/lib/format'
import { notify } from '@/lib/notify'
import type { LogPage } from '@contract/logs'
import { apiUrl } from '@/lib/api-origin'

export type { LogRow } from '@contract/logs'

/** Quota of a log: six decimals for amounts under a cent (single calls), two otherwise. */
export const renderLogQuota = (quota: number) => renderQuota(quota, quota !== 0 && Math.abs(quota) < quotaPerUnit() / 100 ? 6 : 2)

/** The log page's URL state. `scope` is the admin's choice between all logs and their own. */
export interface LogSearch {
  p?: number
  page_size?: number
  scope?: 'all' | 'self'
  type?: number
  token_name?: string
  model_name?: string
  username?: string
  channel_id?: number
  start_timestamp?: number
  end_timestamp?: number
}

/** Whether this page shows every user's logs (admins, unless they chose "my logs"). */
export const showsAll = (search: LogSearch, admin: boolean) => admin && search.scope !== 'self'

/** The filters as the API takes them (no paging): admin-only filters only for the all-logs view. */
export function logFilters(search: LogSearch, all: boolean) {
  return {
    type: search.type || undefined,
    token_name: search.token_name,
    model_name: search.model_name,
    start_timestamp: search.start_timestamp,
    end_timestamp: search.end_timestamp,
    ...(all ? { username: search.username, channel_id: search.channel_id } : {}),
  }
}

const base = (all: boolean) => (all ? '/api/log' : '/api/log/self')

export const logKeys = {
  all: ['logs'] as const,
  list: (all: boolean, search: LogSearch) => ['logs', all ? 'all' : 'self', 'list', search] as const,
  stat: (all: boolean, filters: ReturnType<typeof logFilters>) => ['logs', all ? 'all' : 'self', 'stat', filters] as const,
}

export const logsQueryOptions = (search: LogSearch, all: boolean) =>
  queryOptions({
    queryKey: logKeys.list(all, search),
    queryFn: ({ signal }) => api.get<LogPage>(all ? '/api/log/' : '/api/log/self', { p: search.p, page_size: search.page_size, ...logFilters(search, all) }, signal),
    placeholderData: keepPreviousData,
  })

export const logStatQueryOptions = (search: LogSearch, all: boolean) => {
  const filters = logFilters(search, all)
  return queryOptions({
    queryKey: logKeys.stat(all, filters),
    queryFn: ({ signal }) => api.get<{ quota: number; count: number }>(`${base(all)}/stat`, filters, signal),
    placeholderData: keepPreviousData,
  })
}

/** The CSV download of the filtered rows (same-origin GET with the session cookie). */
export function exportUrl(search: LogSearch, all: boolean): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(logFilters(search, all))) if (v !== undefined && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return apiUrl(`${base(all)}/export${qs ? `?${qs}` : ''}`)
}

/** Root: delete every log created before `before` (Unix seconds); answers how many rows went. */
export function useDeleteLogsBefore() {
  const { t } = useTranslation('logs')
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (before: number) => request<number>('/api/log/', { method: 'DELETE', query: { target_timestamp: before } }).then((r) => r.data),
    onSuccess: (count) => {
      void queryClient.invalidateQueries({ queryKey: logKeys.all })
      notify.success(t('purge.done', { count }))
    },
  })
}
