/**
 * A channel's health as the console reads it: the keys of a pool (masked, with status, reason and
 * next retest; GET /api/channel/:id/keys), re-enabling one key, and the status history
 * (GET /api/channel/:id/history: automatic and manual changes with their request ids), and the
 * breakers per model and key (GET /api/channel/:id/breakers: closed / open until / half-open).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { ChannelBreaker, ChannelBreakersView, ChannelKey, ChannelKeysView, StatusChange } from '@contract/channels'
import type { Page } from '@contract/paging'
import { channelKeys } from './api'

export type { ChannelBreaker, ChannelKey }

export const channelKeysQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...channelKeys.detail(id), 'keys'] as const,
    queryFn: ({ signal }) => api.get<ChannelKeysView>(`/api/channel/${id}/keys`, undefined, signal),
    staleTime: 0,
  })

export const channelBreakersQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...channelKeys.detail(id), 'breakers'] as const,
    queryFn: ({ signal }) => api.get<ChannelBreakersView>(`/api/channel/${id}/breakers`, undefined, signal),
    staleTime: 0,
    refetchInterval: 15_000,
  })

export const channelHistoryQueryOptions = (id: number, p = 1) =>
  queryOptions({
    queryKey: [...channelKeys.detail(id), 'history', p] as const,
    queryFn: ({ signal }) => api.get<Page<StatusChange>>(`/api/channel/${id}/history`, { p, page_size: 10 }, signal),
    staleTime: 0,
  })

export function useEnableChannelKey(channelId: number) {
  const queryClient = useQueryClient()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (hash: string) => api.post(`/api/channel/${channelId}/keys/${hash}/enable`, {}),
    onSuccess: async () => {
      notify.success(t('health.keyEnabled'))
      await queryClient.invalidateQueries({ queryKey: channelKeys.all, predicate: (q) => q.queryKey[1] !== 'types' && q.queryKey[1] !== 'balance-support' })
    },
  })
}
