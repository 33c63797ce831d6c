/** The redemption list: server-paginated, sortable, searchable (id or name), state in the URL of /panel/redemption. */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { KeywordListTable } from '@/components/data-table'
import { redemptionsQueryOptions, type RedemptionListSearch } from '../api'
import { useRedemptionsColumns } from './redemptions-columns'

const route = getRouteApi('/panel/redemption')

export function RedemptionsTable() {
  const { t } = useTranslation('redemptions')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { data, isLoading } = useQuery(redemptionsQueryOptions(search))
  const columns = useRedemptionsColumns()
  const setSearch = (patch: Partial<RedemptionListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  return (
    <KeywordListTable
      search={search}
      setSearch={setSearch}
      page={data}
      loading={isLoading}
      columns={columns}
      searchPlaceholder={t('searchPlaceholder')}
      empty={{ plain: t('empty'), searched: t('emptySearch') }}
    />
  )
}
