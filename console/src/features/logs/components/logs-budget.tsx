/**
 * Root's view of the log table against its budget (GET /api/log/retention): rows of LogMaxRows, the
 * D1 database size, the R2 archive, a warning at 80 %, and a button running retention now
 * (POST /api/log/retention/run).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Archive, Database, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { api, request } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { RetentionResult, RetentionStatus } from '@contract/log-budget'
import { logKeys } from '../api'

const statusKey = [...logKeys.all, 'retention'] as const

/** 1,234,567 bytes → "1.2 MB" (decimal units, as D1's limits are stated). */
function bytesText(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let i = 0
  let v = n
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000
    i++
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`
}

export function LogsBudget() {
  const { t } = useTranslation('logs')
  const queryClient = useQueryClient()
  const { data } = useQuery({ queryKey: statusKey, queryFn: ({ signal }) => api.get<RetentionStatus>('/api/log/retention', undefined, signal) })
  const run = useMutation({
    mutationFn: () => request<RetentionResult>('/api/log/retention/run', { method: 'POST' }).then((r) => r.data),
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: logKeys.all })
      notify.success(t('budget.ran', { archived: r.archived.toLocaleString(), deleted: r.deleted.toLocaleString() }))
    },
  })
  if (!data) return null
  const pct = Math.round(data.usage * 1000) / 10
  const archive = data.archive.enabled
    ? t('budget.archive', { objects: data.archive.objects.toLocaleString(), rows: data.archive.rows.toLocaleString(), size: bytesText(data.archive.bytes) })
    : t('budget.noArchive')
  return (
    <div className="grid gap-2" data-testid="logs-budget">
      {data.warning && (
        <Alert variant="warning">
          <TriangleAlert />
          <AlertTitle>{t('budget.warningTitle', { pct })}</AlertTitle>
          <AlertDescription>{data.archive.enabled ? t('budget.warningArchive') : t('budget.warningDelete')}</AlertDescription>
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <Database className="size-3.5" />
          {t('budget.rows', { rows: data.rows.toLocaleString(), max: data.max_rows.toLocaleString(), pct })}
        </span>
        <span>{t('budget.size', { size: bytesText(data.db_bytes), budget: bytesText(data.budget_bytes) })}</span>
        <span className="inline-flex items-center gap-1.5">
          <Archive className="size-3.5" />
          {archive}
        </span>
        <Button variant="link" size="sm" className="h-auto p-0 text-xs" disabled={run.isPending} onClick={() => run.mutate()} data-testid="logs-retention-run">
          {t('budget.run')}
        </Button>
      </div>
    </div>
  )
}
