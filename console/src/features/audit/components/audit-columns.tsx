/**
 * Columns of the audit table: time, actor, action, target, the field diff (first fields inline, all
 * of them with the client address, user agent and request id in a popover).
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { timestamp2string } from '@/lib/format'
import type { AuditRow } from '../api'
import { AuditDiff } from './audit-diff'

const INLINE_FIELDS = 3

function Details({ row }: { row: AuditRow }) {
  const { t } = useTranslation('audit')
  const facts = [
    [t('detail.ip'), row.ip],
    [t('detail.requestId'), row.request_id],
    [t('detail.userAgent'), row.user_agent],
    [t('detail.request'), `${row.method} ${row.path}`],
  ] as const
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" data-testid="audit-detail-trigger">
          {t('detail.open')}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-[28rem] max-w-[calc(100vw-2rem)] text-sm" align="end" data-testid="audit-detail">
        <p className="mb-2 font-semibold">{t('detail.title')}</p>
        <div className="max-h-72 overflow-y-auto">
          <AuditDiff diff={row.diff} />
        </div>
        <dl className="mt-3 grid gap-1 border-t pt-3 text-xs text-muted-foreground">
          {facts.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-3">
              <dt className="shrink-0">{label}</dt>
              <dd className="font-mono break-all text-right">{value || '—'}</dd>
            </div>
          ))}
        </dl>
      </PopoverContent>
    </Popover>
  )
}

export function useAuditColumns(): ColumnDef<AuditRow>[] {
  const { t } = useTranslation('audit')
  return useMemo<ColumnDef<AuditRow>[]>(() => {
    const col = (id: string, title: string, rest: Partial<ColumnDef<AuditRow>>): ColumnDef<AuditRow> => ({
      id,
      header: title,
      enableSorting: false,
      ...rest,
      meta: { title, ...rest.meta },
    })
    return [
      col('created_at', t('columns.time'), {
        enableHiding: false,
        cell: ({ row }) => {
          const [date, time] = timestamp2string(row.original.created_at).split(' ')
          return (
            <span className="inline-block leading-tight whitespace-nowrap">
              {date}
              <span className="block text-xs text-muted-foreground">{time}</span>
            </span>
          )
        },
      }),
      col('actor', t('columns.actor'), {
        cell: ({ row }) => (
          <span className="whitespace-nowrap" data-testid="audit-actor">
            {row.original.actor_name}
            <span className="block text-xs text-muted-foreground">{t(`role.${row.original.actor_role >= 100 ? 'root' : 'admin'}`)}</span>
          </span>
        ),
      }),
      col('action', t('columns.action'), {
        cell: ({ row }) => (
          <Badge variant="outline" className="font-mono" data-testid="audit-action">
            {row.original.action}
          </Badge>
        ),
      }),
      col('target', t('columns.target'), {
        cell: ({ row }) => (
          <span className="whitespace-nowrap">
            {row.original.target_type}
            {row.original.target_id && <span className="text-muted-foreground"> #{row.original.target_id}</span>}
          </span>
        ),
      }),
      col('diff', t('columns.diff'), {
        enableHiding: false,
        meta: { className: 'min-w-64 max-w-md' },
        cell: ({ row }) => <AuditDiff diff={row.original.diff} limit={INLINE_FIELDS} />,
      }),
      col('detail', t('columns.detail'), { cell: ({ row }) => <Details row={row.original} /> }),
    ]
  }, [t])
}
