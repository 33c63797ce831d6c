/**
 * A TanStack Table wired for server-side lists whose state lives in the URL: page (`p`, 1-based),
 * `page_size`, `order` (`field` or `-field` for descending, one-hub style) and any filters the route
 * declares in its search schema. The route's search params are the single source of truth; changing
 * a page, a sort or a filter navigates, and React Query refetches for the new URL.
 */
import { useMemo, useState } from 'react'
import { getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type SortingState, type VisibilityState } from '@tanstack/react-table'

export interface ListSearch {
  p?: number
  page_size?: number
  order?: string
}

export interface ServerTableOptions<T, S extends ListSearch> {
  data: T[] | undefined
  columns: ColumnDef<T, any>[]
  total: number
  search: S
  /** Replace search params (merged into the current URL search). */
  setSearch: (patch: Partial<S>) => void
  getRowId?: (row: T) => string
  enableRowSelection?: boolean
  /** Columns hidden until the user shows them (column ids). */
  hiddenColumns?: string[]
}

export const DEFAULT_PAGE_SIZE = 10
export const PAGE_SIZES = [10, 20, 50, 100]

export function orderToSorting(order: string | undefined): SortingState {
  if (!order) return []
  return order.startsWith('-') ? [{ id: order.slice(1), desc: true }] : [{ id: order, desc: false }]
}

export function sortingToOrder(sorting: SortingState): string | undefined {
  const s = sorting[0]
  return s ? `${s.desc ? '-' : ''}${s.id}` : undefined
}

export function useServerTable<T, S extends ListSearch>(opts: ServerTableOptions<T, S>) {
  const pageSize = opts.search.page_size ?? DEFAULT_PAGE_SIZE
  const pageIndex = Math.max(0, (opts.search.p ?? 1) - 1)
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({})
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>(() => Object.fromEntries((opts.hiddenColumns ?? []).map((id) => [id, false])))
  const sorting = useMemo(() => orderToSorting(opts.search.order), [opts.search.order])
  const data = useMemo(() => opts.data ?? [], [opts.data])

  return useReactTable<T>({
    data,
    columns: opts.columns,
    getRowId: opts.getRowId,
    pageCount: Math.max(1, Math.ceil(opts.total / pageSize)),
    rowCount: opts.total,
    state: { pagination: { pageIndex, pageSize }, sorting, rowSelection, columnVisibility },
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableRowSelection: opts.enableRowSelection ?? false,
    enableSortingRemoval: true,
    onRowSelectionChange: setRowSelection,
    onColumnVisibilityChange: setColumnVisibility,
    onPaginationChange: (updater) => {
      const next = typeof updater === 'function' ? updater({ pageIndex, pageSize }) : updater
      opts.setSearch({ p: next.pageIndex + 1, page_size: next.pageSize } as Partial<S>)
      setRowSelection({})
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater
      opts.setSearch({ order: sortingToOrder(next), p: 1 } as Partial<S>)
    },
    getCoreRowModel: getCoreRowModel(),
  })
}
