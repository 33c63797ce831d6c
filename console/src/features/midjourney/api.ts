/**
 * Midjourney page calls: admins GET /api/mj/ (every task they outrank, channel and user filters),
 * everyone GET /api/mj/self. The URL keeps times in Unix seconds; the API takes milliseconds.
 */
import { taskListQuery } from '@/features/tasks/api'
import type { TaskListSearch } from '@/features/tasks/components/task-list-page'
import type { MjTaskView } from '@contract/tasks'

/** The URL search of the Midjourney page: the shared task filters (no platform). */
export type MjSearch = Omit<TaskListSearch, 'platform'>

export const MJ_ACTIONS = ['IMAGINE', 'UPSCALE', 'VARIATION', 'REROLL', 'DESCRIBE', 'BLEND', 'SHORTEN', 'ZOOM', 'PAN', 'MODAL', 'INPAINT', 'UPLOAD', 'SWAP_FACE'] as const

export const mjKeys = { all: ['midjourney'] as const }

const ms = (seconds: number | undefined, end = false) => (seconds === undefined ? undefined : seconds * 1000 + (end ? 999 : 0))

export const mjQueryOptions = (search: MjSearch, all: boolean) =>
  taskListQuery<MjTaskView>(['midjourney', all ? 'all' : 'self', search], all ? '/api/mj/' : '/api/mj/self', {
    p: search.p,
    page_size: search.page_size,
    status: search.status,
    action: search.action,
    task_id: search.task_id,
    start_timestamp: ms(search.start_timestamp),
    end_timestamp: ms(search.end_timestamp, true),
    ...(all ? { username: search.username, channel_id: search.channel_id } : {}),
  })
