/**
 * Pieces both task pages share: the status badge (colour per state), the progress bar and the
 * run time of a task (finish − submit, or "running for" while it is not finished).
 */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'

const TONE: Record<string, string> = {
  SUCCESS: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400',
  FAILURE: 'border-destructive/40 bg-destructive/10 text-destructive',
  IN_PROGRESS: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-400',
  SUBMITTED: 'border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  NOT_START: 'text-muted-foreground',
  QUEUED: 'border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  MODAL: 'border-violet-500/40 bg-violet-500/10 text-violet-700 dark:text-violet-400',
}

export const TASK_STATUSES = ['NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE'] as const

export function TaskStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('tasks')
  return (
    <Badge variant="outline" className={cn('whitespace-nowrap', TONE[status] ?? 'text-muted-foreground')} data-testid="task-status">
      {t(`status.${status}`, { defaultValue: status || t('status.UNKNOWN') })}
    </Badge>
  )
}

/** "45%" or "100%" (any junk → 0). */
export const percent = (progress: string) => Math.max(0, Math.min(100, Number.parseInt(progress, 10) || 0))

export function TaskProgress({ progress, failed }: { progress: string; failed?: boolean }) {
  const value = percent(progress)
  return (
    <div className="flex min-w-24 items-center gap-2" data-testid="task-progress">
      <div className="h-1.5 w-16 overflow-hidden rounded-full bg-muted" role="progressbar" aria-valuenow={value} aria-valuemin={0} aria-valuemax={100}>
        <div className={cn('h-full rounded-full', failed ? 'bg-destructive' : value === 100 ? 'bg-emerald-500' : 'bg-primary')} style={{ width: `${value}%` }} />
      </div>
      <span className="text-xs tabular-nums text-muted-foreground">{value}%</span>
    </div>
  )
}

/** Seconds between two instants (both in the same unit; `perSecond` = 1000 for ms). */
export function TaskDuration({ submit, finish, perSecond }: { submit: number; finish: number; perSecond: number }) {
  const { t } = useTranslation('tasks')
  if (!submit) return <span className="text-muted-foreground">—</span>
  const end = finish || Date.now() / (1000 / perSecond)
  const secs = Math.max(0, Math.round((end - submit) / perSecond))
  const text = secs >= 60 ? t('duration.minutes', { m: Math.floor(secs / 60), s: secs % 60 }) : t('duration.seconds', { s: secs })
  return <span className={cn('whitespace-nowrap tabular-nums', !finish && 'text-muted-foreground')}>{finish ? text : t('duration.running', { time: text })}</span>
}

/** A submit or finish time in two lines (date, then time), from Unix seconds; a dash when not yet. */
export function TaskTime({ seconds }: { seconds: number }) {
  if (!seconds) return <span className="text-muted-foreground">—</span>
  const d = new Date(seconds * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return (
    <span className="inline-block leading-tight whitespace-nowrap">
      {`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`}
      <span className="block text-xs text-muted-foreground">{`${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`}</span>
    </span>
  )
}
