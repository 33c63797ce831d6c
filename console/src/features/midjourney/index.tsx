/**
 * /panel/midjourney (spec: Midjourney task list): every signed-in user sees their own tasks; admins
 * see everyone's (or their own) with channel and user filters. Running tasks refresh on their own.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { DataTable, DataTablePagination, useServerTable } from '@/components/data-table'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { TaskScopeActions } from '@/features/tasks'
import { TasksToolbar } from '@/features/tasks/components/tasks-toolbar'
import { MJ_ACTIONS, mjKeys, mjQueryOptions, type MjSearch } from './api'
import { useMjColumns } from './components/mj-columns'

const route = getRouteApi('/panel/midjourney')

export function Midjourney() {
  const { t } = useTranslation('midjourney')
  const admin = isAdmin(useAuthUser())
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const queryClient = useQueryClient()
  const all = admin && search.scope !== 'self'
  const setSearch = (patch: Partial<MjSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  const { data, isLoading, isFetching } = useQuery(mjQueryOptions(search, all))
  const columns = useMjColumns(all)
  const table = useServerTable({ data: data?.data, columns, total: data?.total_count ?? 0, search, setSearch, getRowId: (row) => String(row.id) })
  const filtered = Object.entries(search).some(([k, v]) => v !== undefined && !['p', 'page_size', 'scope'].includes(k))
  return (
    <>
      <PageHeader
        title={t('title')}
        description={all ? t('descriptionAll') : t('descriptionSelf')}
        actions={
          <TaskScopeActions
            admin={admin}
            all={all}
            onScope={(v) => setSearch({ scope: v ? undefined : 'self', p: undefined })}
            refreshing={isFetching}
            onRefresh={() => void queryClient.invalidateQueries({ queryKey: mjKeys.all })}
          />
        }
      />
      <TasksToolbar table={table} search={search} all={all} setSearch={setSearch} actions={MJ_ACTIONS} />
      <DataTable table={table} loading={isLoading} empty={filtered ? t('emptyFiltered') : t('empty')} />
      <DataTablePagination table={table} />
    </>
  )
}
