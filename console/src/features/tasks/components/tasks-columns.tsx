/**
 * Columns of the async-task table: submit time, channel and user (admins' all-tasks view), task id,
 * platform and type, duration, progress, status, failure reason and the output (songs or lyrics).
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import type { TaskView } from '@contract/tasks'
import { hasOutput, TaskOutputDialog } from './task-output-dialog'
import { TaskDuration, TaskProgress, TaskStatusBadge, TaskTime } from './task-status'

const dash = <span className="text-muted-foreground">—</span>

export function useTasksColumns(all: boolean): ColumnDef<TaskView>[] {
  const { t } = useTranslation('tasks')
  return useMemo<ColumnDef<TaskView>[]>(() => {
    const col = (id: string, title: string, rest: Partial<ColumnDef<TaskView>>): ColumnDef<TaskView> => ({
      id,
      header: title,
      enableSorting: false,
      ...rest,
      meta: { title, ...rest.meta },
    })
    return [
      col('submit_time', t('columns.submitTime'), { enableHiding: false, cell: ({ row }) => <TaskTime seconds={row.original.submit_time} /> }),
      ...(all
        ? [
            col('channel_id', t('columns.channel'), { cell: ({ row }) => (row.original.channel_id ? <span className="tabular-nums">#{row.original.channel_id}</span> : dash) }),
            col('username', t('columns.user'), { cell: ({ row }) => row.original.username || dash }),
          ]
        : []),
      col('id', t('columns.taskId'), {
        cell: ({ row }) => (
          <span className="font-mono text-xs" data-testid="task-id">
            {row.original.id}
          </span>
        ),
      }),
      col('platform', t('columns.platform'), {
        cell: ({ row }) => <Badge variant="secondary">{t(`platform.${row.original.platform}`, { defaultValue: row.original.platform })}</Badge>,
      }),
      col('action', t('columns.type'), { cell: ({ row }) => <Badge variant="outline">{t(`action.${row.original.action}`, { defaultValue: row.original.action })}</Badge> }),
      col('finish_time', t('columns.finishTime'), { cell: ({ row }) => <TaskTime seconds={row.original.finish_time} /> }),
      col('duration', t('columns.duration'), { cell: ({ row }) => <TaskDuration submit={row.original.submit_time} finish={row.original.finish_time} perSecond={1} /> }),
      col('progress', t('columns.progress'), { cell: ({ row }) => <TaskProgress progress={row.original.progress} failed={row.original.status === 'FAILURE'} /> }),
      col('status', t('columns.status'), { cell: ({ row }) => <TaskStatusBadge status={row.original.status} /> }),
      col('fail_reason', t('columns.failReason'), {
        cell: ({ row }) =>
          row.original.fail_reason ? (
            <span className="block max-w-56 text-xs break-words text-destructive" data-testid="task-fail-reason">
              {row.original.fail_reason}
            </span>
          ) : (
            dash
          ),
      }),
      col('output', t('columns.output'), { cell: ({ row }) => (hasOutput(row.original) ? <TaskOutputDialog row={row.original} /> : dash) }),
    ]
  }, [t, all])
}
