/**
 * The pricing page's URL state (tab, page, order, keyword, supplier, type) and the supplier and
 * type filters shared by the single and merged views.
 */
import { useMemo } from 'react'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { Price } from '../api'
import { includesText } from '../client-list'
import { useSupplierNames } from './price-cells'

const route = getRouteApi('/panel/pricing')

export type PricingSearch = ReturnType<typeof route.useSearch>

export function usePricingSearch() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = (patch: Partial<PricingSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  return { search, setSearch }
}

export function filterPrices<T extends Pick<Price, 'channel_type' | 'type'>>(rows: T[], search: PricingSearch, text: (row: T) => string) {
  return rows.filter(
    (p) =>
      includesText(text(p), search.keyword) &&
      (search.channel_type === undefined || p.channel_type === search.channel_type) &&
      (search.type === undefined || p.type === search.type)
  )
}

const ALL = 'all'

export function PriceFilters({ prices }: { prices: Price[] }) {
  const { t } = useTranslation('pricing')
  const { search, setSearch } = usePricingSearch()
  const supplier = useSupplierNames()
  const suppliers = useMemo(
    () => [...new Set(prices.map((p) => p.channel_type))].map((id) => ({ id, name: supplier(id) })).sort((a, b) => a.name.localeCompare(b.name)),
    [prices, supplier]
  )
  return (
    <>
      <Select
        value={search.channel_type === undefined ? ALL : String(search.channel_type)}
        onValueChange={(v) => setSearch({ channel_type: v === ALL ? undefined : Number(v), p: undefined })}
      >
        <SelectTrigger className="h-9 w-[calc(50%-0.25rem)] sm:w-44" aria-label={t('filters.supplier')} data-testid="filter-supplier">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{t('filters.allSuppliers')}</SelectItem>
          {suppliers.map((s) => (
            <SelectItem key={s.id} value={String(s.id)}>
              {s.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select value={search.type ?? ALL} onValueChange={(v) => setSearch({ type: v === ALL ? undefined : (v as 'tokens' | 'times'), p: undefined })}>
        <SelectTrigger className="h-9 w-[calc(50%-0.25rem)] sm:w-36" aria-label={t('filters.type')} data-testid="filter-type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{t('filters.allTypes')}</SelectItem>
          <SelectItem value="tokens">{t('types.tokens')}</SelectItem>
          <SelectItem value="times">{t('types.times')}</SelectItem>
        </SelectContent>
      </Select>
    </>
  )
}
