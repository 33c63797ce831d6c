/**
 * The channels list: filters in the toolbar, the bulk-action bar for selected rows, the
 * server-paginated table (state in the URL) and its pager.
 */
import { useEffect, useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { balanceSupportQueryOptions, channelsQueryOptions, channelTypesQueryOptions } from '../api'
import type { ChannelsSearch } from '../schema'
import { ChannelsBulkActions } from './channels-bulk-actions'
import { channelColumns } from './channels-columns'
import { ChannelsFilters } from './channels-filters'
import { useChannelsDialog } from './channels-provider'

interface ChannelsTableProps {
  search: ChannelsSearch
  setSearch: (patch: Partial<ChannelsSearch>) => void
  /** The by-tag view picks the tag elsewhere. */
  tagView: boolean
}

export function ChannelsTable({ search, setSearch, tagView }: ChannelsTableProps) {
  const { t } = useTranslation('channels')
  const { t: tableT } = useTranslation('table')
  const { selectionSeq, open } = useChannelsDialog()
  const { view: _view, ...query } = search
  const list = useQuery(channelsQueryOptions(query))
  const types = useQuery(channelTypesQueryOptions).data
  const balanceSupported = useQuery(balanceSupportQueryOptions).data ?? false

  const columns = useMemo(
    () =>
      channelColumns({
        t,
        tableT,
        types: types ?? [],
        balanceSupported,
        onTag: (tag) => setSearch({ tag, view: 'tag', p: undefined }),
        onEdit: (row) => open({ kind: 'edit', row }),
      }),
    [t, tableT, types, balanceSupported, setSearch, open]
  )
  const table = useServerTable({
    data: list.data?.data,
    columns,
    total: list.data?.total_count ?? 0,
    search,
    setSearch,
    getRowId: (row) => String(row.id),
    enableRowSelection: true,
    hiddenColumns: ['id', 'used_quota', 'weight', 'test_time', 'auto_ban'],
  })
  useEffect(() => table.resetRowSelection(), [selectionSeq, table])

  const selectedIds = table.getSelectedRowModel().rows.map((r) => r.original.id)
  const filtered = [search.type, search.status, search.group, search.model, tagView ? undefined : search.tag].some((v) => v !== undefined)

  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.name, onChange: (name) => setSearch({ name, p: undefined }), placeholder: t('filters.name') }}
        filtered={filtered}
        onReset={() => setSearch({ name: undefined, type: undefined, status: undefined, group: undefined, model: undefined, ...(tagView ? {} : { tag: undefined }), p: undefined })}
      >
        <ChannelsFilters search={search} setSearch={setSearch} showTag={!tagView} />
      </DataTableToolbar>
      <ChannelsBulkActions ids={selectedIds} onClear={() => table.resetRowSelection()} />
      <DataTable table={table} loading={list.isPending} empty={t('empty')} />
      <DataTablePagination table={table} />
    </div>
  )
}
