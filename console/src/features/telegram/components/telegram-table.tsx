/** The bot menu list: server-paginated, sortable (id, command), searchable (id or command prefix); state in the URL. */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { KeywordListTable } from '@/components/data-table'
import { telegramMenusQueryOptions, type TelegramListSearch } from '../api'
import { useTelegramColumns } from './telegram-columns'

const route = getRouteApi('/panel/telegram')

export function TelegramTable() {
  const { t } = useTranslation('telegram')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { data, isLoading } = useQuery(telegramMenusQueryOptions(search))
  const columns = useTelegramColumns()
  const setSearch = (patch: Partial<TelegramListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
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
