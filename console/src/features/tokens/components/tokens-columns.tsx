/**
 * Column definitions of the tokens table. Column ids are the server's sort fields (name,
 * remain_quota, used_quota, created_time, accessed_time, expired_time); the budget column shows
 * the current period's use. The admins' all-users search cannot sort, so its columns are plain.
 * The owner column appears in that mode only.
 */
import type { ColumnDef, HeaderContext } from '@tanstack/react-table'
import type { TFunction } from 'i18next'
import { Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DataTableColumnHeader } from '@/components/data-table'
import { renderQuota, timestamp2string } from '@/lib/format'
import type { ChatLink } from '@/features/jump/chat-links'
import { revealTokenKey, type Token } from '../api'
import { TokenChatMenu, TokenKeyCell, TokenStatusCell } from './tokens-cells'
import type { TokensDialog } from './tokens-provider'
import { BudgetBar } from './token-limits-fields'

interface ColumnOptions {
  t: TFunction<'tokens'>
  tableT: TFunction<'table'>
  /** All-users mode (admins): no sorting, an owner column, no switch on other users' keys. */
  admin: boolean
  myId: number | undefined
  /** Root may reveal any key in the all-users mode; other admins only their own. */
  isRoot: boolean
  chatLinks: ChatLink[]
  open: (dialog: TokensDialog) => void
}

export function tokenColumns({ t, tableT, admin, myId, isRoot, chatLinks, open }: ColumnOptions): ColumnDef<Token>[] {
  // All-users mode shows masked keys: copying is an explicit (logged) reveal by the owner or root.
  const reveal = (row: Token) => (!admin ? undefined : row.user_id === myId ? () => revealTokenKey(row.id, false) : isRoot ? () => revealTokenKey(row.id, true) : null)
  const header = (title: string) => ({
    header: ({ column }: HeaderContext<Token, unknown>) => <DataTableColumnHeader column={column} title={title} />,
    meta: { title },
    enableSorting: !admin,
  })
  // Date above time: two short lines keep the table narrow.
  const time = (seconds: number, zero: string) => (
    <span className="block max-w-[6.5rem] text-xs leading-snug whitespace-normal text-muted-foreground tabular-nums">{seconds > 0 ? timestamp2string(seconds) : zero}</span>
  )
  const columns: ColumnDef<Token>[] = [
    {
      accessorKey: 'name',
      ...header(t('fields.name')),
      enableHiding: false,
      cell: ({ row }) => (
        <div className="max-w-48 min-w-32">
          <div className="truncate font-medium" title={row.original.name}>
            {row.original.name}
          </div>
          <TokenKeyCell row={row.original} reveal={reveal(row.original)} />
        </div>
      ),
    },
    {
      id: 'status',
      enableSorting: false,
      meta: { title: t('fields.status') },
      header: t('fields.status'),
      cell: ({ row }) => <TokenStatusCell row={row.original} canToggle={!admin || row.original.user_id === myId} />,
    },
    {
      accessorKey: 'used_quota',
      ...header(t('fields.used')),
      cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{renderQuota(row.original.used_quota)}</span>,
    },
    {
      accessorKey: 'remain_quota',
      ...header(t('fields.remaining')),
      cell: ({ row }) =>
        row.original.unlimited_quota ? (
          <Badge variant="outline" className="font-normal">
            {t('unlimited')}
          </Badge>
        ) : (
          <span className="whitespace-nowrap tabular-nums">{renderQuota(row.original.remain_quota)}</span>
        ),
    },
    {
      id: 'budget',
      enableSorting: false,
      meta: { title: t('fields.budget') },
      header: t('fields.budget'),
      cell: ({ row }) => {
        const use = row.original.budget_use
        if (use) return <BudgetBar use={use} className="w-28" compact />
        if (row.original.budget_period && row.original.budget_quota > 0) {
          return (
            <span className="whitespace-nowrap tabular-nums">
              {t('limits.budgetOnly', { quota: renderQuota(row.original.budget_quota), period: t(`limits.period.${row.original.budget_period}`) })}
            </span>
          )
        }
        return <span className="text-muted-foreground">—</span>
      },
    },
    {
      id: 'group',
      enableSorting: false,
      meta: { title: t('fields.group') },
      header: t('fields.group'),
      cell: ({ row }) =>
        row.original.group ? (
          <Badge variant="outline" className="font-normal">
            {row.original.group}
          </Badge>
        ) : (
          <span className="text-muted-foreground">{t('ownGroup')}</span>
        ),
    },
    { accessorKey: 'created_time', ...header(t('fields.created')), cell: ({ row }) => time(row.original.created_time, '—') },
    { accessorKey: 'accessed_time', ...header(t('fields.lastUsed')), cell: ({ row }) => time(row.original.accessed_time, t('neverUsed')) },
    {
      accessorKey: 'expired_time',
      ...header(t('fields.expires')),
      cell: ({ row }) => (row.original.expired_time === -1 ? time(0, t('neverExpires')) : time(row.original.expired_time, '—')),
    },
    {
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => <span className="sr-only">{tableT('actions')}</span>,
      cell: ({ row }) => (
        <div className="flex items-center justify-end gap-0.5">
          {!admin && <TokenChatMenu row={row.original} links={chatLinks} />}
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label={t('actions.edit', { name: row.original.name })}
                data-testid={`token-edit-${row.original.id}`}
                onClick={() => open({ kind: 'edit', row: row.original })}
              >
                <Pencil />
              </Button>
            </TooltipTrigger>
            <TooltipContent>{t('actions.editTooltip')}</TooltipContent>
          </Tooltip>
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-destructive hover:text-destructive"
                aria-label={t('actions.delete', { name: row.original.name })}
                data-testid={`token-delete-${row.original.id}`}
                onClick={() => open({ kind: 'delete', row: row.original })}
              >
                <Trash2 />
              </Button>
            </TooltipTrigger>
            <TooltipContent>{t('actions.deleteTooltip')}</TooltipContent>
          </Tooltip>
        </div>
      ),
    },
  ]
  if (admin) {
    columns.splice(1, 0, {
      id: 'owner',
      enableSorting: false,
      meta: { title: t('fields.owner') },
      header: t('fields.owner'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">
          {row.original.username || '—'} <span className="text-muted-foreground">#{row.original.user_id}</span>
        </span>
      ),
    })
  }
  return columns
}
