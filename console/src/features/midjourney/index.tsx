/**
 * /panel/midjourney (spec: Midjourney task list): every signed-in user sees their own tasks; admins
 * see everyone's (or their own) with channel and user filters. Running tasks refresh on their own.
 */
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TaskListPage } from '@/features/tasks/components/task-list-page'
import { MJ_ACTIONS, mjKeys, mjQueryOptions, type MjSearch } from './api'
import { useMjColumns } from './components/mj-columns'

const route = getRouteApi('/panel/midjourney')

export function Midjourney() {
  const { t } = useTranslation('midjourney')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = (patch: Partial<MjSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  return (
    <TaskListPage
      search={search}
      setSearch={setSearch}
      query={mjQueryOptions}
      queryKey={mjKeys.all}
      useColumns={useMjColumns}
      actions={MJ_ACTIONS}
      texts={{ title: t('title'), descriptionAll: t('descriptionAll'), descriptionSelf: t('descriptionSelf'), empty: t('empty'), emptyFiltered: t('emptyFiltered') }}
    />
  )
}
