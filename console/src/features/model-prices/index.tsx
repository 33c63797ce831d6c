/**
 * /panel/model_price (every user): the models the user's group can
 * call with the price the user actually pays (group ratio applied) in USD — per 1M tokens for input
 * and output, or per call — searchable and filterable by supplier, with the group in the header.
 */
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent } from '@/components/ui/card'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { PageHeader } from '@/components/page-header'
import { includesText, pageOf } from '@/features/pricing/client-list'
import { formatRatio } from '@/features/pricing/units'
import { availableModelsQueryOptions, type AvailableModel } from './api'
import { useModelPriceColumns } from './components/model-prices-columns'

const route = getRouteApi('/panel/model_price')
const ALL = 'all'

/** Sort key of a price: unpriced models last. */
const priceKey = (side: 'input' | 'output') => (m: AvailableModel) => (m.priced ? m[side] : null)

export function ModelPrices() {
  const { t } = useTranslation('model-prices')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = (patch: Partial<typeof search>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const { data, isLoading } = useQuery(availableModelsQueryOptions)
  const columns = useModelPriceColumns()
  const models = useMemo(() => [...(data?.models ?? [])].sort((a, b) => a.model.localeCompare(b.model)), [data])
  const suppliers = useMemo(() => [...new Set(models.map((m) => m.owned_by))].sort((a, b) => a.localeCompare(b)), [models])
  const filtered = useMemo(
    () => models.filter((m) => includesText(m.model, search.keyword) && (!search.owned_by || m.owned_by === search.owned_by)),
    [models, search.keyword, search.owned_by]
  )
  const page = pageOf(filtered, search, {
    model: (m) => m.model,
    owned_by: (m) => m.owned_by,
    type: (m) => m.type,
    input: priceKey('input'),
    output: priceKey('output'),
  })
  const table = useServerTable({ data: page.rows, columns, total: page.total, search: { ...search, p: page.page }, setSearch, getRowId: (m) => m.model })

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card className="mb-4 py-4">
        <CardContent className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 text-sm" data-testid="model-price-group">
          {isLoading ? (
            <Skeleton className="h-5 w-64" />
          ) : (
            <>
              <span className="flex items-center gap-2">
                <Users className="size-4 text-muted-foreground" />
                <span className="text-muted-foreground">{t('group')}</span>
                <Badge variant="secondary" className="font-mono">
                  {data?.group ?? '—'}
                </Badge>
              </span>
              <span className="flex items-center gap-2">
                <span className="text-muted-foreground">{t('ratio')}</span>
                <span className="font-semibold tabular-nums" data-testid="model-price-ratio">
                  ×{formatRatio(data?.group_ratio ?? 1)}
                </span>
              </span>
              <span className="text-muted-foreground">{t('ratioApplied')}</span>
            </>
          )}
        </CardContent>
      </Card>
      <DataTableToolbar
        table={table}
        search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: t('search') }}
        filtered={Boolean(search.owned_by)}
        onReset={() => setSearch({ keyword: undefined, owned_by: undefined, p: undefined })}
      >
        <Select value={search.owned_by ?? ALL} onValueChange={(v) => setSearch({ owned_by: v === ALL ? undefined : v, p: undefined })}>
          <SelectTrigger className="h-9 w-full sm:w-48" aria-label={t('columns.supplier')} data-testid="filter-owned-by">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t('allSuppliers')}</SelectItem>
            {suppliers.map((s) => (
              <SelectItem key={s} value={s}>
                {s}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </DataTableToolbar>
      <DataTable table={table} loading={isLoading} empty={models.length ? t('emptyFiltered') : t('empty')} />
      <DataTablePagination table={table} />
    </>
  )
}
