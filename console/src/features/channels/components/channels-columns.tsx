/**
 * Column definitions of the channels table. Column ids are the server's sort fields (id, name,
 * type, group, status, response_time, test_time, used_quota, balance, priority, weight). The id sits
 * under the name, the tag under the groups, the used quota above the balance and the weight
 * beside the priority; the id, used-quota and weight columns start hidden (they still sort).
 */
import type { ColumnDef, HeaderContext } from '@tanstack/react-table'
import type { TFunction } from 'i18next'
import { Tag } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { DataTableColumnHeader, selectionColumn } from '@/components/data-table'
import { renderQuota } from '@/lib/format'
import { splitList } from '../options'
import { BalanceCell, InlineNumberCell, ResponseTimeCell, StatusCell, TestTimeCell } from './channels-cells'
import { ChannelsRowActions } from './channels-row-actions'
import type { Channel, ChannelType } from '@contract/channels'

interface ColumnOptions {
  t: TFunction<'channels'>
  tableT: TFunction<'table'>
  types: ChannelType[]
  /** The server offers balance refreshes. */
  balanceSupported: boolean
  onTag: (tag: string) => void
  onEdit: (row: Channel) => void
}

export function channelColumns({ t, tableT, types, balanceSupported, onTag, onEdit }: ColumnOptions): ColumnDef<Channel>[] {
  const typeOf = (id: number) => types.find((ty) => ty.id === id)
  const header = (title: string) => ({
    header: ({ column }: HeaderContext<Channel, unknown>) => <DataTableColumnHeader column={column} title={title} />,
    meta: { title },
  })
  return [
    selectionColumn<Channel>({ all: tableT('selectAll'), row: tableT('selectRow') }),
    { accessorKey: 'id', ...header(t('fields.id')), cell: ({ row }) => <span className="text-muted-foreground tabular-nums">{row.original.id}</span> },
    {
      accessorKey: 'name',
      ...header(t('fields.name')),
      enableHiding: false,
      cell: ({ row }) => {
        const models = splitList(row.original.models)
        return (
          <div className="max-w-48 min-w-32">
            <button
              type="button"
              className="block max-w-full truncate rounded-sm text-left font-medium underline-offset-4 hover:underline"
              title={row.original.name}
              aria-label={t('actions.editName', { name: row.original.name })}
              onClick={() => onEdit(row.original)}
            >
              {row.original.name}
            </button>
            <div className="truncate text-xs text-muted-foreground" title={models.join(', ')}>
              #{row.original.id} · {models.length > 2 ? `${models.slice(0, 2).join(', ')} +${models.length - 2}` : models.join(', ')}
            </div>
          </div>
        )
      },
    },
    {
      accessorKey: 'type',
      ...header(t('fields.type')),
      cell: ({ row }) => (
        <div className="max-w-36 min-w-28 text-sm leading-snug whitespace-normal">{typeOf(row.original.type)?.name ?? t('unknownType', { id: row.original.type })}</div>
      ),
    },
    {
      accessorKey: 'group',
      ...header(t('fields.groupTag')),
      cell: ({ row }) => (
        <div className="grid max-w-40 min-w-16 justify-items-start gap-1">
          <div className="flex flex-wrap gap-1">
            {splitList(row.original.group).map((g) => (
              <Badge key={g} variant="outline" className="font-normal">
                {g}
              </Badge>
            ))}
          </div>
          {row.original.tag && (
            <button type="button" className="max-w-full rounded-md" onClick={() => onTag(row.original.tag)} title={t('filterByTag')}>
              <Badge variant="secondary" className="max-w-32 font-normal hover:bg-secondary/70">
                <Tag />
                <span className="truncate">{row.original.tag}</span>
              </Badge>
            </button>
          )}
        </div>
      ),
    },
    { accessorKey: 'status', ...header(t('fields.status')), cell: ({ row }) => <StatusCell row={row.original} /> },
    { accessorKey: 'response_time', ...header(t('fields.responseTime')), cell: ({ row }) => <ResponseTimeCell row={row.original} /> },
    { accessorKey: 'test_time', ...header(t('fields.testTime')), cell: ({ row }) => <TestTimeCell row={row.original} /> },
    {
      accessorKey: 'used_quota',
      ...header(t('fields.usedQuota')),
      cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{renderQuota(row.original.used_quota)}</span>,
    },
    {
      accessorKey: 'balance',
      ...header(t('fields.usedBalance')),
      cell: ({ row }) => (
        <div className="grid justify-items-start">
          <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{t('usedAmount', { amount: renderQuota(row.original.used_quota) })}</span>
          <BalanceCell row={row.original} refreshable={balanceSupported && Boolean(typeOf(row.original.type)?.balance)} />
        </div>
      ),
    },
    {
      accessorKey: 'priority',
      ...header(t('fields.priorityWeight')),
      cell: ({ row }) => (
        <div className="flex items-center gap-1.5">
          <InlineNumberCell row={row.original} field="priority" />
          <InlineNumberCell row={row.original} field="weight" />
        </div>
      ),
    },
    // Sorting by weight (the inputs sit in the priority column).
    { accessorKey: 'weight', ...header(t('fields.weight')), cell: ({ row }) => <span className="tabular-nums">{row.original.weight}</span> },
    {
      id: 'auto_ban',
      enableSorting: false,
      meta: { title: t('fields.autoBan') },
      header: t('fields.autoBan'),
      cell: ({ row }) => (
        <Badge variant="outline" className={row.original.auto_ban ? 'font-normal' : 'font-normal text-muted-foreground'}>
          {row.original.auto_ban ? t('autoBan.auto') : t('autoBan.manual')}
        </Badge>
      ),
    },
    {
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => <span className="sr-only">{tableT('actions')}</span>,
      cell: ({ row }) => <ChannelsRowActions row={row.original} />,
    },
  ]
}
