/**
 * Columns of the users table: id, username (+ display name), group, role, status, remaining and
 * used quota, request count, created and last login (IP in a tooltip), row actions. Column ids are
 * the server's sortable fields.
 */
import { useMemo } from 'react'
import type { Column, ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DataTableColumnHeader } from '@/components/data-table'
import { renderQuota, timestamp2string } from '@/lib/format'
import { RoleBadge, StatusBadge } from './users-badges'
import { UsersRowActions } from './users-row-actions'
import type { AdminUser } from '@contract/users'

/** Date over time, to keep the table narrow. */
function TimeCell({ seconds }: { seconds: number }) {
  const [date, time] = timestamp2string(seconds).split(' ')
  return (
    <span className="inline-block leading-tight whitespace-nowrap">
      {date}
      <span className="block text-xs text-muted-foreground">{time}</span>
    </span>
  )
}

export function useUsersColumns(): ColumnDef<AdminUser>[] {
  const { t } = useTranslation('users')
  return useMemo<ColumnDef<AdminUser>[]>(() => {
    const header =
      (title: string) =>
      ({ column }: { column: Column<AdminUser, unknown> }) => <DataTableColumnHeader column={column} title={title} />
    return [
      { id: 'id', accessorKey: 'id', header: header(t('columns.id')), meta: { title: t('columns.id'), className: 'w-16' } },
      {
        id: 'username',
        accessorKey: 'username',
        header: header(t('columns.username')),
        meta: { title: t('columns.username') },
        enableHiding: false,
        cell: ({ row }) => (
          <div className="min-w-32">
            <div className="font-medium">{row.original.username}</div>
            {row.original.display_name && row.original.display_name !== row.original.username && <div className="text-xs text-muted-foreground">{row.original.display_name}</div>}
          </div>
        ),
      },
      {
        id: 'group',
        accessorKey: 'group',
        header: header(t('columns.group')),
        meta: { title: t('columns.group') },
        cell: ({ row }) => <Badge variant="secondary">{row.original.group}</Badge>,
      },
      { id: 'role', accessorKey: 'role', header: header(t('columns.role')), meta: { title: t('columns.role') }, cell: ({ row }) => <RoleBadge role={row.original.role} /> },
      {
        id: 'status',
        accessorKey: 'status',
        header: header(t('columns.status')),
        meta: { title: t('columns.status') },
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
      {
        id: 'quota',
        accessorKey: 'quota',
        header: header(t('columns.quota')),
        meta: { title: t('columns.quota'), className: 'text-right' },
        cell: ({ row }) => (
          <span className="tabular-nums" data-testid="user-quota">
            {renderQuota(row.original.quota)}
          </span>
        ),
      },
      {
        id: 'used_quota',
        accessorKey: 'used_quota',
        header: header(t('columns.usedQuota')),
        meta: { title: t('columns.usedQuota'), className: 'text-right' },
        cell: ({ row }) => <span className="text-muted-foreground tabular-nums">{renderQuota(row.original.used_quota)}</span>,
      },
      {
        id: 'request_count',
        accessorKey: 'request_count',
        header: header(t('columns.requestCount')),
        meta: { title: t('columns.requestCount'), className: 'text-right' },
        cell: ({ row }) => <span className="tabular-nums">{row.original.request_count.toLocaleString()}</span>,
      },
      {
        id: 'created_time',
        accessorKey: 'created_time',
        header: header(t('columns.createdTime')),
        meta: { title: t('columns.createdTime') },
        cell: ({ row }) => <TimeCell seconds={row.original.created_time} />,
      },
      {
        id: 'last_login_time',
        accessorKey: 'last_login_time',
        header: header(t('columns.lastLogin')),
        meta: { title: t('columns.lastLogin') },
        cell: ({ row }) => {
          const { last_login_time: time, last_login_ip: ip } = row.original
          if (!time) return <span className="text-muted-foreground">{t('never')}</span>
          return (
            <Tooltip>
              <TooltipTrigger asChild>
                <span className="cursor-default underline decoration-dotted underline-offset-4" tabIndex={0} data-testid="last-login">
                  <TimeCell seconds={time} />
                </span>
              </TooltipTrigger>
              <TooltipContent>{t('lastLoginIp', { ip: ip || t('unknownIp') })}</TooltipContent>
            </Tooltip>
          )
        },
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-10 text-right' },
        cell: ({ row }) => <UsersRowActions row={row.original} />,
      },
    ]
  }, [t])
}
