/**
 * Telegram bot calls (admin): the menu list (GET /api/option/telegram/), create (POST), edit (PUT),
 * delete (DELETE /:id), the bot's status (GET /status: mode, webhook info, polling state) and
 * Reload (PUT /reload), which pushes the menus and the webhook/polling mode to Telegram.
 */
import { queryOptions, useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { pagedListQuery, useInvalidate } from '@/lib/list-query'
import { notify } from '@/lib/notify'
import type { ListSearch } from '@contract/paging'
import type { MenuBody, TelegramMenu, TelegramStatus } from '@contract/telegram'

export { PARSE_MODES, type TelegramMenu, type TelegramStatus } from '@contract/telegram'

export type TelegramListSearch = ListSearch

export const telegramKeys = {
  all: ['telegram'] as const,
  list: (search: TelegramListSearch) => ['telegram', 'menus', search] as const,
  status: ['telegram', 'status'] as const,
}

export const telegramMenusQueryOptions = (search: TelegramListSearch) => pagedListQuery<TelegramMenu>(telegramKeys.list(search), '/api/option/telegram/', search)

export const telegramStatusQueryOptions = queryOptions({
  queryKey: telegramKeys.status,
  queryFn: ({ signal }) => api.get<TelegramStatus>('/api/option/telegram/status', undefined, signal),
})

const useRefresh = () => useInvalidate(telegramKeys.all)

export function useSaveMenu() {
  const { t } = useTranslation('telegram')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ id, ...body }: MenuBody & { id?: number }) =>
      id ? api.put<TelegramMenu>('/api/option/telegram/', { id, ...body }) : api.post<TelegramMenu>('/api/option/telegram/', body),
    onSuccess: (_, vars) => {
      refresh()
      notify.success(vars.id ? t('toast.updated') : t('toast.created'))
    },
  })
}

export function useDeleteMenu() {
  const { t } = useTranslation('telegram')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/option/telegram/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}

export function useReloadBot() {
  const { t } = useTranslation('telegram')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: () => api.put<{ bot_username: string; menus: number; mode: string }>('/api/option/telegram/reload'),
    onSuccess: (data) => {
      refresh()
      notify.success(t('toast.reloaded', { count: data.menus, bot: data.bot_username }))
    },
  })
}
