/**
 * The log list: server-paginated with every filter in the URL of /panel/log. The server counts at
 * most 10,000 matching rows (`total_capped`): the pager then shows "10,000+" and keeps offering the
 * next page while pages come back full.
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { DEFAULT_PAGE_SIZE, DataTable, DataTablePagination, useServerTable } from '@/components/data-table'
import { logsQueryOptions, type LogSearch } from '../api'
import { useLogsColumns } from './logs-columns'
import { LogsToolbar } from './logs-toolbar'

interface Props {
  search: LogSearch
  all: boolean
  setSearch: (patch: Partial<LogSearch>) => void
}

export function LogsTable({ search, all, setSearch }: Props) {
  const { t } = useTranslation('logs')
  const { data, isLoading } = useQuery(logsQueryOptions(search, all))
  const columns = useLogsColumns(all)
  const size = search.page_size ?? DEFAULT_PAGE_SIZE
  const page = search.p ?? 1
  const capped = data?.total_capped ?? false
  const rows = data?.data.length ?? 0
  const total = !data ? 0 : capped ? Math.max(data.total_count, (page - 1) * size + rows + (rows === size ? 1 : 0)) : data.total_count
  const table = useServerTable({ data: data?.data, columns, total, search, setSearch, getRowId: (row) => String(row.id) })
  const filtered = Object.entries(search).some(([k, v]) => v !== undefined && !['p', 'page_size', 'scope'].includes(k))

  return (
    <div>
      <LogsToolbar table={table} search={search} all={all} setSearch={setSearch} />
      <DataTable table={table} loading={isLoading} empty={filtered ? t('emptyFiltered') : t('empty')} />
      <DataTablePagination table={table} totalLabel={capped ? t('totalCapped', { count: data!.total_count.toLocaleString() }) : undefined} />
    </div>
  )
}
