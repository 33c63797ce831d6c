/**
 * Per-model statistics of the chosen range: requests, consumption (and its share), input and
 * output tokens, average duration. The range's totals are already in memory, so the table sorts
 * on the client; it is drawn with the shared DataTable.
 */
import { useMemo, useState } from 'react'
import { getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { chartColor } from '@/components/ui/chart'
import { DataTable, DataTableColumnHeader } from '@/components/data-table'
import { renderNumber } from '@/lib/format'
import { renderQuotaFine } from '../format'
import { formatDuration, type ModelTotal } from '../data'

export function ModelStatsTable({ totals, loading }: { totals: ModelTotal[]; loading?: boolean }) {
  const { t } = useTranslation('dashboard')
  const [sorting, setSorting] = useState<SortingState>([{ id: 'quota', desc: true }])
  const sumQuota = useMemo(() => totals.reduce((s, m) => s + m.quota, 0), [totals])
  const colorOf = useMemo(() => new Map(totals.map((m, i) => [m.model_name, i < 7 ? chartColor(i) : undefined])), [totals])

  const columns = useMemo<ColumnDef<ModelTotal>[]>(
    () => [
      {
        accessorKey: 'model_name',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.model')} />,
        cell: ({ row }) => (
          <span className="flex items-center gap-2 font-medium">
            <span className="size-2.5 shrink-0 rounded-[3px] bg-muted-foreground" style={{ background: colorOf.get(row.original.model_name) }} />
            <span className="max-w-64 truncate">{row.original.model_name}</span>
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
        cell: ({ row }) => (
          <span className="tabular-nums">
            <span data-testid="model-quota">{renderQuotaFine(row.original.quota)}</span>
            <span className="ml-1.5 text-xs text-muted-foreground">{sumQuota ? `${((row.original.quota / sumQuota) * 100).toFixed(1)}%` : ''}</span>
          </span>
        ),
      },
      {
        accessorKey: 'prompt_tokens',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.promptTokens')} />,
        cell: ({ row }) => <span className="tabular-nums">{renderNumber(row.original.prompt_tokens)}</span>,
      },
      {
        accessorKey: 'completion_tokens',
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.completionTokens')} />,
        cell: ({ row }) => <span className="tabular-nums">{renderNumber(row.original.completion_tokens)}</span>,
      },
      {
        id: 'avg_time',
        accessorFn: (m) => (m.request_count ? m.request_time / m.request_count : 0),
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.avgDuration')} />,
        cell: ({ getValue }) => <span className="tabular-nums">{formatDuration(getValue<number>())}</span>,
      },
    ],
    [t, sumQuota, colorOf]
  )

  const table = useReactTable({
    data: totals,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (m) => m.model_name,
  })
  return <DataTable table={table} loading={loading} empty={t('empty')} />
}
