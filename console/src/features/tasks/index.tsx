/**
 * /panel/task (spec: async tasks): Suno music and lyrics tasks with their status, progress, failure
 * reason and playable output. Everyone sees their own tasks; admins see everyone's (or their own).
 */
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { ACTIONS, PLATFORMS, taskKeys, tasksQueryOptions, type TaskSearch } from './api'
import { TaskListPage } from './components/task-list-page'
import { useTasksColumns } from './components/tasks-columns'

const route = getRouteApi('/panel/task')

export function Tasks() {
  const { t } = useTranslation('tasks')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = (patch: Partial<TaskSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  return (
    <TaskListPage
      search={search}
      setSearch={setSearch}
      query={tasksQueryOptions}
      queryKey={taskKeys.all}
      useColumns={useTasksColumns}
      actions={ACTIONS}
      platforms={PLATFORMS}
      texts={{
        title: t('tasksTitle'),
        descriptionAll: t('tasksDescriptionAll'),
        descriptionSelf: t('tasksDescriptionSelf'),
        empty: t('emptyTasks'),
        emptyFiltered: t('emptyFiltered'),
      }}
    />
  )
}
