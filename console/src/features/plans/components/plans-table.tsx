/** Every plan (published or not) in a TanStack table, sorted on the page (the list is small and comes whole). */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getCoreRowModel, getSortedRowModel, type SortingState, useReactTable } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { DataTable } from '@/components/data-table'
import { plansQueryOptions } from '../api'
import { usePlansColumns } from './plans-columns'

export function PlansTable() {
  const { t } = useTranslation('plans')
  const { data, isLoading } = useQuery(plansQueryOptions)
  const columns = usePlansColumns()
  const [sorting, setSorting] = useState<SortingState>([{ id: 'priority', desc: true }])
  const table = useReactTable({
    data: data ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (p) => String(p.id),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  })
  return (
    <div className="overflow-x-auto" data-testid="plans-table">
      <DataTable table={table} loading={isLoading} empty={t('emptyAdmin')} />
    </div>
  )
}
