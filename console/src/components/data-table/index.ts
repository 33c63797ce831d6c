/** The shared list kit: every server-paginated console table is built from these pieces. */
export { DataTable } from './data-table'
export { DataTableColumnHeader } from './data-table-column-header'
export { DataTablePagination } from './data-table-pagination'
export { DataTableToolbar } from './data-table-toolbar'
export { selectionColumn } from './selection-column'
export { KeywordListTable } from './keyword-list-table'
export { DEFAULT_PAGE_SIZE, useServerTable, type ListSearch } from './use-server-table'
