/**
 * The audit list: server-paginated, newest first, every filter (actor, action, target type and id,
 * time range) in the URL of /panel/audit, with the CSV export of the same filters.
 */
import { useQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { DebouncedInput, TimeRangeFilter } from '@/features/logs/components/logs-filter-input'
import { ensureStepUp } from '@/lib/step-up'
import { FILTER_KEYS, auditExportUrl, auditQueryOptions, type AuditSearch } from '../api'
import { useAuditColumns } from './audit-columns'

interface Props {
  search: AuditSearch
  setSearch: (patch: Partial<AuditSearch>) => void
}

export function AuditTable({ search, setSearch }: Props) {
  const { t } = useTranslation('audit')
  const { data, isLoading } = useQuery(auditQueryOptions(search))
  const columns = useAuditColumns()
  const table = useServerTable({ data: data?.data, columns, total: data?.total_count ?? 0, search, setSearch, getRowId: (row) => String(row.id) })
  const filter = (patch: Partial<AuditSearch>) => setSearch({ ...patch, p: undefined })
  const filtered = FILTER_KEYS.some((k) => search[k] !== undefined)
  const text = (key: 'actor' | 'action' | 'target_type' | 'target_id', className: string) => (
    <DebouncedInput
      value={search[key]}
      onCommit={(v) => filter({ [key]: v })}
      placeholder={t(`filters.${key}`)}
      aria-label={t(`filters.${key}`)}
      className={className}
      name={key}
    />
  )

  return (
    <div>
      <DataTableToolbar
        table={table}
        filtered={filtered}
        onReset={() => filter(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])))}
        actions={
          <Button variant="outline" className="h-9" asChild>
            <a
              href={auditExportUrl(search)}
              download
              data-testid="audit-export"
              onClick={(e) => {
                // The export is a step-up action: ask for the password first when needed.
                e.preventDefault()
                const href = e.currentTarget.href
                void ensureStepUp().then((confirmed) => confirmed && window.location.assign(href))
              }}
            >
              <Download />
              {t('export')}
            </a>
          </Button>
        }
      >
        {text('actor', 'w-[calc(50%-0.25rem)] sm:w-36')}
        {text('action', 'w-[calc(50%-0.25rem)] sm:w-40')}
        {text('target_type', 'w-[calc(50%-0.25rem)] sm:w-32')}
        {text('target_id', 'w-[calc(50%-0.25rem)] sm:w-28')}
        <TimeRangeFilter search={search} filter={filter} labels={{ start: t('filters.start'), end: t('filters.end') }} />
      </DataTableToolbar>
      <DataTable table={table} loading={isLoading} empty={filtered ? t('emptyFiltered') : t('empty')} />
      <DataTablePagination table={table} />
    </div>
  )
}
