/**
 * Redemption code calls (admin): the paged list (GET /api/redemption/), batch creation (POST —
 * answers the plain codes once), edit / enable / disable (PUT) and delete (DELETE /:id). Every
 * mutation refreshes the list.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'

export const REDEMPTION_STATUS = { UNUSED: 1, DISABLED: 2, REDEEMED: 3 } as const

export interface Redemption {
  id: number
  name: string
  /** The first characters of the code's SHA-256 followed by '…' (the plain code is shown only at creation). */
  key: string
  status: number
  quota: number
  /** The user who redeemed it (0 until then). */
  user_id: number
  created_time: number
  /** 0 until redeemed. */
  redeemed_time: number
}

export interface RedemptionListSearch {
  p?: number
  page_size?: number
  order?: string
  keyword?: string
}

interface ListPage<T> {
  data: T[]
  page: number
  size: number
  total_count: number
}

export const redemptionKeys = {
  all: ['redemptions'] as const,
  list: (search: RedemptionListSearch) => ['redemptions', 'list', search] as const,
}

export const redemptionsQueryOptions = (search: RedemptionListSearch) =>
  queryOptions({
    queryKey: redemptionKeys.list(search),
    queryFn: ({ signal }) =>
      api.get<ListPage<Redemption>>('/api/redemption/', { p: search.p, page_size: search.page_size, order: search.order, keyword: search.keyword }, signal),
    placeholderData: keepPreviousData,
  })

function useRefresh() {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey: redemptionKeys.all })
}

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
