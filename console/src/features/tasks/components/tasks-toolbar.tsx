/**
 * Filters of both task pages, kept in the URL: platform (async tasks), type, status, task id, and
 * for admins viewing everyone's tasks the username and channel id; then the submit-time range.
 */
import type { Table } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { DataTableToolbar } from '@/components/data-table'
import { DebouncedInput, OwnerAndRangeFilters } from '@/features/logs/components/logs-filter-input'
import { TASK_STATUSES } from './task-status'

export interface TaskFilterSearch {
  platform?: string
  status?: string
  action?: string
  task_id?: string
  username?: string
  channel_id?: number
  start_timestamp?: number
  end_timestamp?: number
  p?: number
}

const KEYS = ['platform', 'status', 'action', 'task_id', 'username', 'channel_id', 'start_timestamp', 'end_timestamp'] as const

interface Props<T, S extends TaskFilterSearch> {
  table: Table<T>
  search: S
  all: boolean
  setSearch: (patch: Partial<S>) => void
  actions: readonly string[]
  platforms?: readonly string[]
}

function Choice({
  value,
  options,
  onChange,
  label,
  allLabel,
  render,
  testId,
}: {
  value?: string
  options: readonly string[]
  onChange: (v?: string) => void
  label: string
  allLabel: string
  render: (v: string) => string
  testId: string
}) {
  return (
    <Select value={value ?? 'all'} onValueChange={(v) => onChange(v === 'all' ? undefined : v)}>
      <SelectTrigger className="h-9 w-[calc(50%-0.25rem)] sm:w-36" aria-label={label} data-testid={testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="all">{allLabel}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o} value={o}>
            {render(o)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

export function TasksToolbar<T, S extends TaskFilterSearch>({ table, search, all, setSearch, actions, platforms }: Props<T, S>) {
  const { t } = useTranslation('tasks')
  const filter = (patch: Partial<TaskFilterSearch>) => setSearch({ ...patch, p: undefined } as Partial<S>)
  const filtered = KEYS.some((k) => search[k] !== undefined && (all || (k !== 'username' && k !== 'channel_id')))
  const reset = () => filter(Object.fromEntries(KEYS.map((k) => [k, undefined])))
  return (
    <DataTableToolbar table={table} filtered={filtered} onReset={reset}>
      {platforms && (
        <Choice
          value={search.platform}
          options={platforms}
          onChange={(platform) => filter({ platform })}
          label={t('filters.platform')}
          allLabel={t('filters.allPlatforms')}
          render={(p) => t(`platform.${p}`)}
          testId="filter-platform"
        />
      )}
      <Choice
        value={search.action}
        options={actions}
        onChange={(action) => filter({ action })}
        label={t('filters.type')}
        allLabel={t('filters.allTypes')}
        render={(a) => t(`action.${a}`, { defaultValue: a })}
        testId="filter-action"
      />
      <Choice
        value={search.status}
        options={TASK_STATUSES}
        onChange={(status) => filter({ status })}
        label={t('filters.status')}
        allLabel={t('filters.allStatuses')}
        render={(s) => t(`status.${s}`)}
        testId="filter-status"
      />
      <DebouncedInput
        value={search.task_id}
        onCommit={(v) => filter({ task_id: v && /^\d{1,15}$/.test(v) ? v : undefined })}
        placeholder={t('filters.taskId')}
        aria-label={t('filters.taskId')}
        inputMode="numeric"
        className="w-[calc(50%-0.25rem)] sm:w-28"
        name="task_id"
      />
      <OwnerAndRangeFilters search={search} all={all} filter={filter} t={t} />
    </DataTableToolbar>
  )
}
