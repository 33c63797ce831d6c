/**
 * /panel/task (spec: async tasks): Suno music and lyrics tasks with their status, progress, failure
 * reason and playable output. Everyone sees their own tasks; admins see everyone's (or their own).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { DataTable, DataTablePagination, useServerTable } from '@/components/data-table'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { ACTIONS, PLATFORMS, taskKeys, tasksQueryOptions, type TaskSearch } from './api'
import { useTasksColumns } from './components/tasks-columns'
import { TasksToolbar } from './components/tasks-toolbar'

const route = getRouteApi('/panel/task')

/** Admin's all/own switch and the refresh button, shared by both task pages. */
export function TaskScopeActions({ admin, all, onScope, onRefresh, refreshing }: { admin: boolean; all: boolean; onScope: (all: boolean) => void; onRefresh: () => void; refreshing: boolean }) {
  const { t } = useTranslation('tasks')
  return (
    <div className="flex flex-wrap items-center gap-2">
      {admin && (
        <Tabs value={all ? 'all' : 'self'} onValueChange={(v) => onScope(v === 'all')}>
          <TabsList>
            <TabsTrigger value="all" data-testid="tasks-scope-all">
              {t('scope.all')}
            </TabsTrigger>
            <TabsTrigger value="self" data-testid="tasks-scope-self">
              {t('scope.self')}
            </TabsTrigger>
          </TabsList>
        </Tabs>
      )}
      <Button variant="outline" size="icon" className="size-9" onClick={onRefresh} aria-label={t('refresh')} title={t('refresh')}>
        <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
      </Button>
    </div>
  )
}

export function Tasks() {
  const { t } = useTranslation('tasks')
  const admin = isAdmin(useAuthUser())
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const queryClient = useQueryClient()
  const all = admin && search.scope !== 'self'
  const setSearch = (patch: Partial<TaskSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  const { data, isLoading, isFetching } = useQuery(tasksQueryOptions(search, all))
  const columns = useTasksColumns(all)
  const table = useServerTable({ data: data?.data, columns, total: data?.total_count ?? 0, search, setSearch, getRowId: (row) => String(row.id) })
  const filtered = Object.entries(search).some(([k, v]) => v !== undefined && !['p', 'page_size', 'scope'].includes(k))
  return (
    <>
      <PageHeader
        title={t('tasksTitle')}
        description={all ? t('tasksDescriptionAll') : t('tasksDescriptionSelf')}
        actions={
          <TaskScopeActions
            admin={admin}
            all={all}
            onScope={(v) => setSearch({ scope: v ? undefined : 'self', p: undefined })}
            refreshing={isFetching}
            onRefresh={() => void queryClient.invalidateQueries({ queryKey: taskKeys.all })}
          />
        }
      />
      <TasksToolbar table={table} search={search} all={all} setSearch={setSearch} actions={ACTIONS} platforms={PLATFORMS} />
      <DataTable table={table} loading={isLoading} empty={filtered ? t('emptyFiltered') : t('emptyTasks')} />
      <DataTablePagination table={table} />
    </>
  )
}
