/** The redemption list: server-paginated, sortable, searchable (id or name), state in the URL of /panel/redemption. */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { redemptionsQueryOptions, type RedemptionListSearch } from '../api'
import { useRedemptionsColumns } from './redemptions-columns'

const route = getRouteApi('/panel/redemption')

export function RedemptionsTable() {
  const { t } = useTranslation('redemptions')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { data, isLoading } = useQuery(redemptionsQueryOptions(search))
  const columns = useRedemptionsColumns()
  const setSearch = (patch: Partial<RedemptionListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  const table = useServerTable({ data: data?.data, columns, total: data?.total_count ?? 0, search, setSearch, getRowId: (row) => String(row.id) })

  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: t('searchPlaceholder') }}
        onReset={() => setSearch({ keyword: undefined, p: undefined })}
      />
      <DataTable table={table} loading={isLoading} empty={search.keyword ? t('emptySearch') : t('empty')} />
      <DataTablePagination table={table} />
    </div>
  )
}
