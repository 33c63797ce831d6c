/**
 * Redemption code calls (admin): the paged list (GET /api/redemption/), batch creation (POST —
 * answers the plain codes once), edit / enable / disable (PUT) and delete (DELETE /:id). Every
 * mutation refreshes the list.
 */
import { useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { pagedListQuery, useInvalidate } from '@/lib/list-query'
import { notify } from '@/lib/notify'
import type { ListSearch } from '@contract/paging'
import type { Redemption } from '@contract/redemptions'

export type { Redemption }
export type RedemptionListSearch = ListSearch

export const redemptionKeys = {
  all: ['redemptions'] as const,
  list: (search: RedemptionListSearch) => ['redemptions', 'list', search] as const,
}

export const redemptionsQueryOptions = (search: RedemptionListSearch) => pagedListQuery<Redemption>(redemptionKeys.list(search), '/api/redemption/', search)

const useRefresh = () => useInvalidate(redemptionKeys.all)

export function useCreateRedemptions() {
  const { t } = useTranslation('redemptions')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { name: string; quota: number; count: number }) => api.post<string[]>('/api/redemption/', body),
    onSuccess: (keys) => {
      refresh()
      notify.success(t('toast.created', { count: keys.length }))
    },
  })
}

export function useUpdateRedemption() {
  const { t } = useTranslation('redemptions')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { id: number; name: string; quota: number; status: 1 | 2 }) => api.put<Redemption>('/api/redemption/', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.updated'))
    },
  })
}

export function useDeleteRedemption() {
  const { t } = useTranslation('redemptions')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/redemption/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}
