/** The quota sum and row count of the filtered logs (GET /api/log/stat or /api/log/self/stat), above the table. */
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Coins, ListOrdered } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { logStatQueryOptions, renderLogQuota, type LogSearch } from '../api'

export function LogsStat({ search, all, actions }: { search: LogSearch; all: boolean; actions?: ReactNode }) {
  const { t } = useTranslation('logs')
  const { data } = useQuery(logStatQueryOptions(search, all))
  const items = [
    { icon: Coins, label: t('stat.quota'), value: data && renderLogQuota(data.quota), testId: 'logs-stat-quota' },
    { icon: ListOrdered, label: t('stat.count'), value: data?.count.toLocaleString(), testId: 'logs-stat-count' },
  ]
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="grid w-full grid-cols-2 gap-3 sm:w-auto sm:min-w-[28rem]" data-testid="logs-stat">
        {items.map(({ icon: Icon, label, value, testId }) => (
          <div key={testId} className="flex items-center gap-3 rounded-xl border bg-card px-3 py-2.5 shadow-xs sm:px-4 sm:py-3">
            <div className="hidden size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex">
              <Icon className="size-4" />
            </div>
            <div className="min-w-0">
              <p className="text-xs text-muted-foreground">{label}</p>
              {value === undefined ? (
                <Skeleton className="mt-1 h-6 w-20" />
              ) : (
                <p className="truncate text-lg font-semibold tabular-nums" data-testid={testId}>
                  {value}
                </p>
              )}
            </div>
          </div>
        ))}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  )
}
