/**
 * A server-paginated list with one keyword search box whose state lives in the route's URL search:
 * the toolbar, the table and the pager. The feature passes its query result, columns and texts.
 */
import type { ColumnDef } from '@tanstack/react-table'
import type { ListSearch, Page } from '@contract/paging'
import { DataTable } from './data-table'
import { DataTablePagination } from './data-table-pagination'
import { DataTableToolbar } from './data-table-toolbar'
import { useServerTable } from './use-server-table'

interface KeywordListTableProps<T extends { id: number }> {
  search: ListSearch
  setSearch: (patch: Partial<ListSearch>) => void
  page: Page<T> | undefined
  loading: boolean
  columns: ColumnDef<T, any>[]
  searchPlaceholder: string
  /** Shown when the list is empty: `searched` while a keyword is set. */
  empty: { plain: string; searched: string }
}

export function KeywordListTable<T extends { id: number }>(props: KeywordListTableProps<T>) {
  const { search, setSearch } = props
  const table = useServerTable({
    data: props.page?.data,
    columns: props.columns,
    total: props.page?.total_count ?? 0,
    search,
    setSearch,
    getRowId: (row) => String(row.id),
  })
  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: props.searchPlaceholder }}
        onReset={() => setSearch({ keyword: undefined, p: undefined })}
      />
      <DataTable table={table} loading={props.loading} empty={search.keyword ? props.empty.searched : props.empty.plain} />
      <DataTablePagination table={table} />
    </div>
  )
}
