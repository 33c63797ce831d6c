/** The bot menu list: server-paginated, sortable (id, command), searchable (id or command prefix); state in the URL. */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { telegramMenusQueryOptions, type TelegramListSearch } from '../api'
import { useTelegramColumns } from './telegram-columns'

const route = getRouteApi('/panel/telegram')

export function TelegramTable() {
  const { t } = useTranslation('telegram')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { data, isLoading } = useQuery(telegramMenusQueryOptions(search))
  const columns = useTelegramColumns()
  const setSearch = (patch: Partial<TelegramListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
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
