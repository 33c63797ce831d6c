/**
 * Merged view: models that charge the same price shown as one row, edited together (POST
 * /api/prices/multiple) or deleted together. Same filters and URL state as the single view; the
 * search matches any model of a group.
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { Lock, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { DataTable, DataTableColumnHeader, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import type { Price } from '../api'
import { pageOf } from '../client-list'
import { groupPrices, type PriceGroup } from '../price-groups'
import { IconAction } from './icon-action'
import { priceValueColumns, useSupplierNames } from './price-cells'
import { PriceFilters, filterPrices, usePricingSearch } from './pricing-filters'
import { usePricing } from './pricing-provider'

const SHOWN_MODELS = 8

function ModelBadges({ models }: { models: string[] }) {
  const { t } = useTranslation('pricing')
  const shown = models.slice(0, SHOWN_MODELS)
  return (
    <div className="flex max-w-[28rem] min-w-48 flex-wrap gap-1 whitespace-normal">
      {shown.map((m) => (
        <Badge key={m} variant="secondary" className="font-mono font-normal">
          {m}
        </Badge>
      ))}
      {models.length > shown.length && (
        <Badge variant="outline" className="font-normal" title={models.slice(SHOWN_MODELS).join(', ')}>
          {t('merged.more', { count: models.length - shown.length })}
        </Badge>
      )}
    </div>
  )
}

function useMergedColumns(): ColumnDef<PriceGroup>[] {
  const { t } = useTranslation('pricing')
  const { t: tt } = useTranslation('table')
  const supplier = useSupplierNames()
  const { open } = usePricing()
  return useMemo<ColumnDef<PriceGroup>[]>(
    () => [
      {
        id: 'models',
        accessorFn: (g) => g.models[0],
        enableHiding: false,
        meta: { title: t('fields.models') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.models')} />,
        cell: ({ row }) => <ModelBadges models={row.original.models} />,
      },
      {
        id: 'channel_type',
        accessorFn: (g) => g.channel_type,
        meta: { title: t('fields.supplier') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.supplier')} />,
        cell: ({ row }) => supplier(row.original.channel_type),
      },
      ...priceValueColumns<PriceGroup>(t),
      {
        id: 'locked',
        enableSorting: false,
        meta: { title: t('fields.locked') },
        header: t('fields.locked'),
        cell: ({ row }) =>
          row.original.locked > 0 ? (
            <span className="inline-flex items-center gap-1 text-sm">
              <Lock className="size-3.5 text-warning" />
              {row.original.locked}/{row.original.models.length}
            </span>
          ) : (
            <span className="text-muted-foreground">—</span>
          ),
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-20 text-right' },
        header: () => <span className="sr-only">{tt('actions')}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <IconAction label={t('merged.edit')} onClick={() => open({ kind: 'merged', group: row.original })} data-testid="merged-edit">
              <Pencil />
            </IconAction>
            <IconAction label={t('merged.delete')} className="text-destructive hover:text-destructive" onClick={() => open({ kind: 'delete-prices', models: row.original.models })}>
              <Trash2 />
            </IconAction>
          </div>
        ),
      },
    ],
    [t, tt, supplier, open]
  )
}

export function PricingMergedTable({ prices, loading }: { prices: Price[] | undefined; loading: boolean }) {
  const { t } = useTranslation('pricing')
  const { search, setSearch } = usePricingSearch()
  const supplier = useSupplierNames()
  const columns = useMergedColumns()
  const all = useMemo(() => prices ?? [], [prices])
  const groups = useMemo(() => groupPrices(all), [all])
  const filtered = useMemo(() => filterPrices(groups, search, (g) => g.models.join('\n')), [groups, search])
  const page = pageOf(filtered, search, {
    models: (g) => g.models[0],
    channel_type: (g) => supplier(g.channel_type),
    type: (g) => g.type,
    input: (g) => g.input,
    output: (g) => g.output,
  })
  const table = useServerTable({ data: page.rows, columns, total: page.total, search: { ...search, p: page.page }, setSearch, getRowId: (g) => g.key })
  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: t('filters.search') }}
        filtered={search.channel_type !== undefined || search.type !== undefined}
        onReset={() => setSearch({ keyword: undefined, channel_type: undefined, type: undefined, p: undefined })}
      >
        <PriceFilters prices={all} />
      </DataTableToolbar>
      <DataTable table={table} loading={loading} empty={all.length ? t('empty.filtered') : t('empty.prices')} />
      <DataTablePagination table={table} totalLabel={t('merged.total', { count: page.total, models: filtered.reduce((n, g) => n + g.models.length, 0) })} />
    </div>
  )
}
