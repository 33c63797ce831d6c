/**
 * /panel/log: everyone sees their own logs; admins see all logs (or switch to
 * their own). Filters in the URL, the filtered quota sum, CSV export, the price breakdown of each
 * charge, and — for root — the log budget and archive (logs-budget.tsx) and deleting logs before a date.
 */
import { useIsFetching, useQueryClient } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { ROLE } from '@contract/enums'
import { logKeys, showsAll, type LogSearch } from './api'
import { LogsBudget } from './components/logs-budget'
import { LogsPurgeDialog } from './components/logs-purge-dialog'
import { LogsStat } from './components/logs-stat'
import { LogsTable } from './components/logs-table'
import { LogsActions } from './components/logs-toolbar'

const route = getRouteApi('/panel/log')

export function Logs() {
  const { t } = useTranslation('logs')
  const user = useAuthUser()
  const admin = isAdmin(user)
  const root = (user?.role ?? 0) >= ROLE.ROOT
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const queryClient = useQueryClient()
  const all = showsAll(search, admin)
  const refreshing = useIsFetching({ queryKey: logKeys.all }) > 0
  const setSearch = (patch: Partial<LogSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })

  return (
    <>
      <PageHeader
        title={t('title')}
        description={all ? t('descriptionAll') : t('descriptionSelf')}
        actions={
          (admin || root) && (
            <div className="flex flex-wrap items-center gap-2">
              {admin && (
                <Tabs value={all ? 'all' : 'self'} onValueChange={(v) => setSearch({ scope: v === 'self' ? 'self' : undefined, p: undefined })}>
                  <TabsList>
                    <TabsTrigger value="all" data-testid="logs-scope-all">
                      {t('scope.all')}
                    </TabsTrigger>
                    <TabsTrigger value="self" data-testid="logs-scope-self">
                      {t('scope.self')}
                    </TabsTrigger>
                  </TabsList>
                </Tabs>
              )}
              {root && <LogsPurgeDialog />}
            </div>
          )
        }
      />
      {root && all && <LogsBudget />}
      <LogsStat
        search={search}
        all={all}
        actions={<LogsActions search={search} all={all} refreshing={refreshing} onRefresh={() => void queryClient.invalidateQueries({ queryKey: logKeys.all })} />}
      />
      <LogsTable search={search} all={all} setSearch={setSearch} />
    </>
  )
}
