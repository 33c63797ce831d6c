/**
 * Async-task page calls (Suno and Kling): admins GET /api/task/ (every task they
 * outrank, channel and user filters), everyone GET /api/task/self. Times are Unix seconds.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { TaskListSearch } from './components/task-list-page'
import type { TaskView } from '@contract/tasks'

export interface TaskSearch extends TaskListSearch {
  platform?: 'suno' | 'kling'
}

export const PLATFORMS = ['suno', 'kling'] as const
export const ACTIONS = ['MUSIC', 'LYRICS', 'text2video', 'image2video'] as const

export const taskKeys = { all: ['tasks'] as const }

/** The paged task list; unfinished tasks move on their own, so look again while any row on the page is still running. */
export const taskListQuery = <T extends { progress: string }>(queryKey: readonly unknown[], path: string, params: Record<string, string | number | undefined>) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => api.get<{ data: T[]; total_count: number }>(path, params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((r) => r.progress !== '100%') ? 10_000 : false),
  })

export const tasksQueryOptions = (search: TaskSearch, all: boolean) =>
  taskListQuery<TaskView>(['tasks', all ? 'all' : 'self', search], all ? '/api/task/' : '/api/task/self', {
    p: search.p,
    page_size: search.page_size,
    platform: search.platform,
    status: search.status,
    action: search.action,
    task_id: search.task_id,
    start_timestamp: search.start_timestamp,
    end_timestamp: search.end_timestamp,
    ...(all ? { username: search.username, channel_id: search.channel_id } : {}),
  })
