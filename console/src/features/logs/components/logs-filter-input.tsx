/**
 * Filter inputs of the log and task pages bound to URL params: a text box that commits after typing pauses,
 * a local date-time box that commits Unix seconds (empty clears the filter), the from–to pair (also on the audit
 * page), and the owner + time-range group.
 */
import { useEffect, useRef, useState, type ComponentProps } from 'react'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/utils'

type InputProps = Omit<ComponentProps<typeof Input>, 'value' | 'onChange'>

export function DebouncedInput({ value, onCommit, className, ...props }: InputProps & { value: string | undefined; onCommit: (value: string | undefined) => void }) {
  const [text, setText] = useState(value ?? '')
  const commit = useRef(onCommit)
  commit.current = onCommit
  useEffect(() => setText(value ?? ''), [value])
  useEffect(() => {
    if (text.trim() === (value ?? '')) return
    const timer = setTimeout(() => commit.current(text.trim() || undefined), 400)
    return () => clearTimeout(timer)
  }, [text, value])
  return <Input {...props} value={text} onChange={(e) => setText(e.target.value)} className={cn('h-9', className)} />
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds → the 'YYYY-MM-DDTHH:mm' a datetime-local input shows, in local time. */
export function toLocalInput(seconds: number | undefined): string {
  if (!seconds) return ''
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined
  const ms = new Date(value).getTime()
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined
}

export function DateTimeInput({
  value,
  onCommit,
  endOfMinute,
  className,
  ...props
}: InputProps & { value: number | undefined; onCommit: (value: number | undefined) => void; endOfMinute?: boolean }) {
  return (
    <Input
      {...props}
      type="datetime-local"
      value={toLocalInput(value)}
      onChange={(e) => {
        const next = fromLocalInput(e.target.value)
        // An end time covers the whole chosen minute.
        onCommit(next !== undefined && endOfMinute ? next + 59 : next)
      }}
      className={cn('h-9 w-full min-w-0 sm:w-52', className)}
    />
  )
}

interface TimeRange {
  start_timestamp?: number
  end_timestamp?: number
}

interface OwnerRangeSearch extends TimeRange {
  username?: string
  channel_id?: number
}

/** The from–to pair of date-time boxes (stacked on a phone) bound to `start_timestamp` / `end_timestamp`. */
export function TimeRangeFilter({ search, filter, labels }: { search: TimeRange; filter: (patch: TimeRange) => void; labels: { start: string; end: string } }) {
  return (
    <div className="grid w-full grid-cols-1 gap-2 sm:flex sm:w-auto sm:items-center">
      <DateTimeInput
        value={search.start_timestamp}
        onCommit={(start_timestamp) => filter({ start_timestamp })}
        aria-label={labels.start}
        title={labels.start}
        name="start_timestamp"
      />
      <span className="hidden text-muted-foreground sm:inline">–</span>
      <DateTimeInput
        value={search.end_timestamp}
        onCommit={(end_timestamp) => filter({ end_timestamp })}
        endOfMinute
        aria-label={labels.end}
        title={labels.end}
        name="end_timestamp"
      />
    </div>
  )
}

/**
 * The filters the log and task toolbars share: username and channel id (only when an admin views
 * everyone's rows), then the submit-time range. `t` is the caller's namespace (same filter keys).
 */
export function OwnerAndRangeFilters({
  search,
  all,
  filter,
  t,
}: {
  search: OwnerRangeSearch
  all: boolean
  filter: (patch: OwnerRangeSearch) => void
  t: (key: string) => string
}) {
  return (
    <>
      {all && (
        <>
          <DebouncedInput
            value={search.username}
            onCommit={(username) => filter({ username })}
            placeholder={t('filters.username')}
            aria-label={t('filters.username')}
            className="w-[calc(50%-0.25rem)] sm:w-36"
            name="username"
          />
          <DebouncedInput
            value={search.channel_id ? String(search.channel_id) : undefined}
            onCommit={(v) => filter({ channel_id: v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined })}
            placeholder={t('filters.channel')}
            aria-label={t('filters.channel')}
            inputMode="numeric"
            className="w-[calc(50%-0.25rem)] sm:w-28"
            name="channel_id"
          />
        </>
      )}
      <TimeRangeFilter search={search} filter={filter} labels={{ start: t('filters.start'), end: t('filters.end') }} />
    </>
  )
}
