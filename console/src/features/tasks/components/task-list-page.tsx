/**
 * The frame both task pages share (async tasks and Midjourney): the header with the admin's all/own
 * switch and refresh, the filter toolbar, the table and the pager. Everyone sees their own tasks;
 * admins see everyone's unless the URL says `scope=self`. The feature passes its query and texts.
 */
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import { RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { DataTable, DataTablePagination, useServerTable } from '@/components/data-table'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { TasksToolbar, type TaskFilterSearch } from './tasks-toolbar'

export interface TaskListSearch extends TaskFilterSearch {
  page_size?: number
  scope?: 'all' | 'self'
}

interface TaskList<T> {
  data: T[]
  total_count: number
}

interface TaskListPageProps<T, S extends TaskListSearch, K extends QueryKey> {
  search: S
  setSearch: (patch: Partial<S>) => void
  query: (search: S, all: boolean) => UseQueryOptions<TaskList<T>, Error, TaskList<T>, K>
  /** The feature's root query key, invalidated by the refresh button. */
  queryKey: QueryKey
  useColumns: (all: boolean) => ColumnDef<T, any>[]
  actions: readonly string[]
  platforms?: readonly string[]
  texts: { title: string; descriptionAll: string; descriptionSelf: string; empty: string; emptyFiltered: string }
}

/** Admin's all/own switch and the refresh button, shared by both task pages. */
function TaskScopeActions({
  admin,
  all,
  onScope,
  onRefresh,
  refreshing,
}: {
  admin: boolean
  all: boolean
  onScope: (all: boolean) => void
  onRefresh: () => void
  refreshing: boolean
}) {
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

export function TaskListPage<T extends { id: number }, S extends TaskListSearch, K extends QueryKey>(props: TaskListPageProps<T, S, K>) {
  const { search, setSearch, texts } = props
  const admin = isAdmin(useAuthUser())
  const queryClient = useQueryClient()
  const all = admin && search.scope !== 'self'
  const { data, isLoading, isFetching } = useQuery(props.query(search, all))
  const columns = props.useColumns(all)
  const table = useServerTable({ data: data?.data, columns, total: data?.total_count ?? 0, search, setSearch, getRowId: (row) => String(row.id) })
  const filtered = Object.entries(search).some(([k, v]) => v !== undefined && !['p', 'page_size', 'scope'].includes(k))
  return (
    <>
      <PageHeader
        title={texts.title}
        description={all ? texts.descriptionAll : texts.descriptionSelf}
        actions={
          <TaskScopeActions
            admin={admin}
            all={all}
            onScope={(v) => setSearch({ scope: v ? undefined : 'self', p: undefined } as Partial<S>)}
            refreshing={isFetching}
            onRefresh={() => void queryClient.invalidateQueries({ queryKey: props.queryKey })}
          />
        }
      />
      <TasksToolbar table={table} search={search} all={all} setSearch={setSearch} actions={props.actions} platforms={props.platforms} />
      <DataTable table={table} loading={isLoading} empty={filtered ? texts.emptyFiltered : texts.empty} />
      <DataTablePagination table={table} />
    </>
  )
}
