/**
 * Columns of the redemption table: id, name, status, quota, created and redeemed time, the
 * redeeming user, the key fingerprint and the row actions. Column ids are the server's sortable fields.
 */
import { useMemo } from 'react'
import type { Column, ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DataTableColumnHeader } from '@/components/data-table'
import { renderQuota, timestamp2string } from '@/lib/format'
import { REDEMPTION_STATUS } from '@contract/enums'
import type { Redemption } from '../api'
import { RedemptionsRowActions } from './redemptions-row-actions'

function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('redemptions')
  if (status === REDEMPTION_STATUS.UNUSED) return <Badge variant="success">{t('status.unused')}</Badge>
  if (status === REDEMPTION_STATUS.DISABLED) return <Badge className="border-transparent bg-destructive/12 text-destructive">{t('status.disabled')}</Badge>
  if (status === REDEMPTION_STATUS.REDEEMED) return <Badge variant="secondary">{t('status.redeemed')}</Badge>
  return <Badge variant="outline">{t('status.unknown', { status })}</Badge>
}

export function useRedemptionsColumns(): ColumnDef<Redemption>[] {
  const { t } = useTranslation('redemptions')
  return useMemo<ColumnDef<Redemption>[]>(() => {
    const header =
      (title: string) =>
      ({ column }: { column: Column<Redemption, unknown> }) => <DataTableColumnHeader column={column} title={title} />
    const time = (value: number) => {
      if (!value) return <span className="text-muted-foreground">—</span>
      const [date, clock] = timestamp2string(value).split(' ')
      return (
        <span className="inline-block leading-tight whitespace-nowrap">
          {date}
          <span className="block text-xs text-muted-foreground">{clock}</span>
        </span>
      )
    }
    return [
      { id: 'id', accessorKey: 'id', header: header(t('columns.id')), meta: { title: t('columns.id'), className: 'w-16' } },
      {
        id: 'name',
        accessorKey: 'name',
        header: header(t('columns.name')),
        enableHiding: false,
        meta: { title: t('columns.name') },
        cell: ({ row }) => <span className="font-medium">{row.original.name}</span>,
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: header(t('columns.status')),
        meta: { title: t('columns.status') },
        cell: ({ row }) => (
          <span data-testid="redemption-status">
            <StatusBadge status={row.original.status} />
          </span>
        ),
      },
      {
        id: 'quota',
        accessorKey: 'quota',
        header: header(t('columns.quota')),
        meta: { title: t('columns.quota') },
        cell: ({ row }) => <span className="tabular-nums">{renderQuota(row.original.quota)}</span>,
      },
      {
        id: 'created_time',
        accessorKey: 'created_time',
        header: header(t('columns.createdTime')),
        meta: { title: t('columns.createdTime') },
        cell: ({ row }) => time(row.original.created_time),
      },
      {
        id: 'redeemed_time',
        accessorKey: 'redeemed_time',
        header: header(t('columns.redeemedTime')),
        meta: { title: t('columns.redeemedTime') },
        cell: ({ row }) => time(row.original.redeemed_time),
      },
      {
        id: 'user_id',
        accessorKey: 'user_id',
        enableSorting: false,
        header: t('columns.redeemer'),
        meta: { title: t('columns.redeemer') },
        cell: ({ row }) =>
          row.original.user_id ? (
            <span className="tabular-nums" data-testid="redemption-user">
              #{row.original.user_id}
            </span>
          ) : (
            <span className="text-muted-foreground">—</span>
          ),
      },
      {
        id: 'key',
        accessorKey: 'key',
        enableSorting: false,
        header: () => (
          <Tooltip>
            <TooltipTrigger asChild>
              <span className="cursor-help underline decoration-dotted underline-offset-4" tabIndex={0}>
                {t('columns.key')}
              </span>
            </TooltipTrigger>
            <TooltipContent className="max-w-64">{t('keyHint')}</TooltipContent>
          </Tooltip>
        ),
        meta: { title: t('columns.key') },
        cell: ({ row }) => <code className="font-mono text-xs text-muted-foreground">{row.original.key}</code>,
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-10 text-right' },
        cell: ({ row }) => <RedemptionsRowActions row={row.original} />,
      },
    ]
  }, [t])
}
