/**
 * The range's top users and top models (ten each, by consumption, as the API ranks them), drawn
 * with the shared DataTable; columns sort on the client.
 */
import { useMemo, useState } from 'react'
import { getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { DataTable, DataTableColumnHeader } from '@/components/data-table'
import { renderNumber } from '@/lib/format'
import { renderQuotaFine } from '@/features/dashboard/format'
import type { TopModel, TopUser } from '@contract/analytics'

type Ranked<T> = T & { rank: number }

function useClientTable<T>(data: Ranked<T>[], columns: ColumnDef<Ranked<T>>[], rowId: (row: Ranked<T>) => string) {
  const [sorting, setSorting] = useState<SortingState>([])
  return useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: rowId,
  })
}

const rankColumn = <T,>(title: string): ColumnDef<Ranked<T>> => ({
  accessorKey: 'rank',
  header: title,
  enableSorting: false,
  cell: ({ row }) => <span className="text-muted-foreground tabular-nums">{row.original.rank}</span>,
  meta: { className: 'w-10' },
})

export function TopUsersTable({ users, loading }: { users: TopUser[] | undefined; loading: boolean }) {
  const { t } = useTranslation('analytics')
  const data = useMemo(() => (users ?? []).map((u, i) => ({ ...u, rank: i + 1 })), [users])
  const columns = useMemo<ColumnDef<Ranked<TopUser>>[]>(
    () => [
      rankColumn<TopUser>(t('columns.rank')),
      {
        id: 'user',
        accessorFn: (u) => u.username ?? '',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.user')} />,
        cell: ({ row }) => (
          <span className="flex min-w-0 items-baseline gap-2">
            <span className="max-w-48 truncate font-medium">{row.original.username ?? t('deletedUser')}</span>
            <span className="text-xs text-muted-foreground">#{row.original.user_id}</span>
          </span>
        ),
      },
      {
        accessorKey: 'request_count',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.requests')} />,
        cell: ({ row }) => <span className="tabular-nums">{row.original.request_count.toLocaleString()}</span>,
      },
      {
        accessorKey: 'quota',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.quota')} />,
        cell: ({ row }) => <span className="tabular-nums">{renderQuotaFine(row.original.quota)}</span>,
      },
    ],
    [t]
  )
  const table = useClientTable(data, columns, (u) => String(u.user_id))
  return <DataTable table={table} loading={loading} empty={t('emptyPeriod')} />
}

export function TopModelsTable({ models, loading }: { models: TopModel[] | undefined; loading: boolean }) {
  const { t } = useTranslation('analytics')
  const data = useMemo(() => (models ?? []).map((m, i) => ({ ...m, rank: i + 1 })), [models])
  const columns = useMemo<ColumnDef<Ranked<TopModel>>[]>(
    () => [
      rankColumn<TopModel>(t('columns.rank')),
      {
        accessorKey: 'model_name',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.model')} />,
        cell: ({ row }) => <span className="block max-w-40 truncate font-medium xl:max-w-56">{row.original.model_name}</span>,
      },
      {
        accessorKey: 'request_count',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.requests')} />,
        cell: ({ row }) => <span className="tabular-nums">{row.original.request_count.toLocaleString()}</span>,
      },
      {
        accessorKey: 'tokens',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.tokens')} />,
        cell: ({ row }) => <span className="tabular-nums">{renderNumber(row.original.tokens)}</span>,
      },
      {
        accessorKey: 'quota',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.quota')} />,
        cell: ({ row }) => <span className="tabular-nums">{renderQuotaFine(row.original.quota)}</span>,
      },
    ],
    [t]
  )
  const table = useClientTable(data, columns, (m) => m.model_name)
  return <DataTable table={table} loading={loading} empty={t('emptyPeriod')} />
}
