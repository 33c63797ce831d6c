/**
 * Columns of the Midjourney table (spec): submit time, channel and user (admins' all-tasks view),
 * task id, type, duration, progress, status, prompt / promptEn with copy, failure reason and the
 * result image with a lightbox. Times in the rows are milliseconds.
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { copyText } from '@/lib/clipboard'
import { TaskDuration, TaskProgress, TaskStatusBadge, TaskTime } from '@/features/tasks/components/task-status'
import type { MjTaskView } from '@contract/tasks'
import { MjImage } from './mj-image'

const dash = <span className="text-muted-foreground">—</span>

function Prompt({ row }: { row: MjTaskView }) {
  const { t } = useTranslation('midjourney')
  if (!row.prompt && !row.prompt_en) return dash
  return (
    <div className="grid max-w-72 min-w-48 gap-1 text-xs">
      {[row.prompt, row.prompt_en !== row.prompt ? row.prompt_en : ''].filter(Boolean).map((text, i) => (
        <div key={i} className="flex items-start gap-1">
          <span className={i ? 'line-clamp-2 break-words text-muted-foreground' : 'line-clamp-3 break-words'} title={text}>
            {i ? <span className="mr-1 font-medium">EN</span> : null}
            {text}
          </span>
          <Button variant="ghost" size="icon" className="size-6 shrink-0" onClick={() => void copyText(text)} aria-label={t(i ? 'copyPromptEn' : 'copyPrompt')}>
            <Copy className="size-3" />
          </Button>
        </div>
      ))}
    </div>
  )
}

export function useMjColumns(all: boolean): ColumnDef<MjTaskView>[] {
  const { t } = useTranslation('midjourney')
  const { t: tt } = useTranslation('tasks')
  return useMemo<ColumnDef<MjTaskView>[]>(() => {
    const col = (id: string, title: string, rest: Partial<ColumnDef<MjTaskView>>): ColumnDef<MjTaskView> => ({
      id,
      header: title,
      enableSorting: false,
      ...rest,
      meta: { title, ...rest.meta },
    })
    return [
      col('submit_time', tt('columns.submitTime'), { enableHiding: false, cell: ({ row }) => <TaskTime seconds={Math.floor(row.original.submit_time / 1000)} /> }),
      ...(all
        ? [
            col('channel_id', tt('columns.channel'), { cell: ({ row }) => (row.original.channel_id ? <span className="tabular-nums">#{row.original.channel_id}</span> : dash) }),
            col('username', tt('columns.user'), { cell: ({ row }) => row.original.username || dash }),
          ]
        : []),
      col('id', tt('columns.taskId'), {
        cell: ({ row }) => (
          <span className="font-mono text-xs" data-testid="mj-id">
            {row.original.id}
          </span>
        ),
      }),
      col('action', tt('columns.type'), {
        cell: ({ row }) => (
          <Badge variant="outline" className="whitespace-nowrap">
            {t(`action.${row.original.action}`, { defaultValue: row.original.action })}
          </Badge>
        ),
      }),
      col('finish_time', tt('columns.finishTime'), { cell: ({ row }) => <TaskTime seconds={Math.floor(row.original.finish_time / 1000)} /> }),
      col('duration', tt('columns.duration'), { cell: ({ row }) => <TaskDuration submit={row.original.submit_time} finish={row.original.finish_time} perSecond={1000} /> }),
      col('progress', tt('columns.progress'), { cell: ({ row }) => <TaskProgress progress={row.original.progress} failed={row.original.status === 'FAILURE'} /> }),
      col('status', tt('columns.status'), { cell: ({ row }) => <TaskStatusBadge status={row.original.status} /> }),
      col('image', t('columns.image'), { cell: ({ row }) => (row.original.image_url ? <MjImage url={row.original.image_url} id={row.original.id} /> : dash) }),
      col('prompt', t('columns.prompt'), { cell: ({ row }) => <Prompt row={row.original} /> }),
      col('fail_reason', tt('columns.failReason'), {
        cell: ({ row }) =>
          row.original.fail_reason ? (
            <span className="block max-w-56 text-xs break-words text-destructive" data-testid="mj-fail-reason">
              {row.original.fail_reason}
            </span>
          ) : (
            dash
          ),
      }),
    ]
  }, [t, tt, all])
}
