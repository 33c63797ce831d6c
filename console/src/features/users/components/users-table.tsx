/**
 * The users list: server-paginated, sortable, searchable (id, username, display name, email,
 * group) with its state in the URL of /panel/user.
 */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { usersQueryOptions, type UserListSearch } from '../api'
import { useUsersColumns } from './users-columns'

const route = getRouteApi('/panel/user')

export function UsersTable() {
  const { t } = useTranslation('users')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { data, isLoading } = useQuery(usersQueryOptions(search))
  const columns = useUsersColumns()
  const setSearch = (patch: Partial<UserListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  const table = useServerTable({
    data: data?.data,
    columns,
    total: data?.total_count ?? 0,
    search,
    setSearch,
    getRowId: (row) => String(row.id),
  })

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
