/**
 * Top-up calls: redeem a code (POST /api/user/topup; the balance on screen follows through the
 * self query) and the invite code (GET /api/user/aff).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { renderQuota } from '@/lib/format'
import { notify } from '@/lib/notify'
import { selfQueryOptions } from '@/features/auth/api'
import type { RedeemResult } from '@contract/redemptions'

export const affCodeQueryOptions = queryOptions({
  queryKey: ['topup', 'aff-code'],
  queryFn: () => api.get<string>('/api/user/aff'),
  staleTime: Infinity,
})

export function useRedeem() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('topup')
  return useMutation({
    mutationFn: (key: string) => api.post<RedeemResult>('/api/user/topup', { key }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: selfQueryOptions.queryKey })
      notify.success(t('redeem.success', { amount: renderQuota(result.quota) }))
    },
  })
}
