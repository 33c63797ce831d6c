/**
 * Single view: one row per model with search, supplier and type filters, sortable columns, paging
 * in the URL, and deleting the selected rows together (PUT /api/prices/multiple/delete).
 */
import { useMemo } from 'react'
import { Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import type { Price } from '../api'
import { pageOf } from '../client-list'
import { usePriceColumns } from './pricing-columns'
import { PriceFilters, filterPrices, usePricingSearch } from './pricing-filters'
import { usePricing } from './pricing-provider'
import { useSupplierNames } from './price-cells'

export function PricingSingleTable({ prices, loading }: { prices: Price[] | undefined; loading: boolean }) {
  const { t } = useTranslation('pricing')
  const { search, setSearch } = usePricingSearch()
  const { open } = usePricing()
  const supplier = useSupplierNames()
  const columns = usePriceColumns()
  const all = useMemo(() => prices ?? [], [prices])
  const filtered = useMemo(() => filterPrices(all, search, (p) => p.model), [all, search])
  const page = pageOf(filtered, search, {
    model: (p) => p.model,
    channel_type: (p) => supplier(p.channel_type),
    type: (p) => p.type,
    input: (p) => p.input,
    output: (p) => p.output,
    locked: (p) => p.locked,
  })
  const table = useServerTable({
    data: page.rows,
    columns,
    total: page.total,
    search: { ...search, p: page.page },
    setSearch,
    getRowId: (p) => p.model,
    enableRowSelection: true,
  })
  const selected = table.getSelectedRowModel().rows.map((r) => r.original.model)
  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: t('filters.search') }}
        filtered={search.channel_type !== undefined || search.type !== undefined}
        onReset={() => setSearch({ keyword: undefined, channel_type: undefined, type: undefined, p: undefined })}
        actions={
          selected.length > 0 && (
            <Button variant="destructive" size="sm" className="h-9" onClick={() => open({ kind: 'delete-prices', models: selected, onDeleted: () => table.resetRowSelection() })}>
              <Trash2 />
              {t('actions.deleteSelected', { count: selected.length })}
            </Button>
          )
        }
      >
        <PriceFilters prices={all} />
      </DataTableToolbar>
      <DataTable table={table} loading={loading} empty={all.length ? t('empty.filtered') : t('empty.prices')} />
      <DataTablePagination table={table} />
    </div>
  )
}
