/**
 * Filters of the log page, all kept in the URL: type, token name, model name, start and end time,
 * and — in the all-logs view — username and channel id (with the column chooser); and the refresh
 * and CSV export buttons.
 */
import type { Table } from '@tanstack/react-table'
import { Download, RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DataTableToolbar } from '@/components/data-table'
import { LOG_TYPES } from '@contract/enums'
import { exportUrl, type LogRow, type LogSearch } from '../api'
import { ensureStepUp } from '@/lib/step-up'
import { DebouncedInput, OwnerAndRangeFilters } from './logs-filter-input'

interface Props {
  table: Table<LogRow>
  search: LogSearch
  all: boolean
  setSearch: (patch: Partial<LogSearch>) => void
}

const FILTER_KEYS = ['type', 'token_name', 'model_name', 'username', 'channel_id', 'start_timestamp', 'end_timestamp'] as const

/** Refresh and CSV export of the filtered rows (shown beside the statistic). */
export function LogsActions({ search, all, refreshing, onRefresh }: { search: LogSearch; all: boolean; refreshing: boolean; onRefresh: () => void }) {
  const { t } = useTranslation('logs')
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="outline" size="icon" className="size-9" onClick={onRefresh} aria-label={t('toolbar.refresh')}>
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{t('toolbar.refresh')}</TooltipContent>
      </Tooltip>
      <Button variant="outline" className="h-9" asChild>
        <a
          href={exportUrl(search, all)}
          download
          data-testid="logs-export"
          onClick={(e) => {
            // Exporting every user's logs is a step-up action: ask for the password first when needed.
            if (!all) return
            e.preventDefault()
            const href = e.currentTarget.href
            void ensureStepUp().then((confirmed) => confirmed && window.location.assign(href))
          }}
        >
          <Download />
          {t('toolbar.export')}
        </a>
      </Button>
    </>
  )
}

export function LogsToolbar({ table, search, all, setSearch }: Props) {
  const { t } = useTranslation('logs')
  const filter = (patch: Partial<LogSearch>) => setSearch({ ...patch, p: undefined })
  const filtered = FILTER_KEYS.some((k) => search[k] !== undefined && (all || (k !== 'username' && k !== 'channel_id')))
  const reset = () => filter(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])))

  return (
    <DataTableToolbar table={table} filtered={filtered} onReset={reset}>
      <Select value={search.type ? String(search.type) : 'all'} onValueChange={(v) => filter({ type: v === 'all' ? undefined : Number(v) })}>
        <SelectTrigger className="h-9 w-full sm:w-36" aria-label={t('filters.type')} data-testid="filter-type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">{t('filters.allTypes')}</SelectItem>
          {LOG_TYPES.map((type) => (
            <SelectItem key={type} value={String(type)}>
              {t(`type.${type}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <DebouncedInput
        value={search.token_name}
        onCommit={(token_name) => filter({ token_name })}
        placeholder={t('filters.token')}
        aria-label={t('filters.token')}
        className="w-[calc(50%-0.25rem)] sm:w-40"
        name="token_name"
      />
      <DebouncedInput
        value={search.model_name}
        onCommit={(model_name) => filter({ model_name })}
        placeholder={t('filters.model')}
        aria-label={t('filters.model')}
        className="w-[calc(50%-0.25rem)] sm:w-44"
        name="model_name"
      />
      <OwnerAndRangeFilters search={search} all={all} filter={filter} t={t} />
    </DataTableToolbar>
  )
}
