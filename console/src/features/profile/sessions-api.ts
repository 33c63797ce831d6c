/**
 * The profile's session calls: the list (GET /api/user/sessions), signing one out
 * (DELETE /api/user/sessions/:id), signing out everywhere else (POST /api/user/sessions/revoke_all)
 * and revoking the personal access token (DELETE /api/user/token).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { SessionsList } from '@contract/sessions'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { UserProfile } from '@/stores/auth-store'
import { selfQueryOptions } from '@/features/auth/api'

export const sessionsQueryOptions = queryOptions({
  queryKey: ['user', 'sessions'],
  queryFn: ({ signal }) => api.get<SessionsList>('/api/user/sessions', undefined, signal),
})

export function useRevokeSession() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/user/sessions/${id}`),
    onSuccess: async () => {
      notify.success(t('sessions.revoked'))
      await queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey })
    },
  })
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: () => api.post<{ kept_current: boolean }>('/api/user/sessions/revoke_all', { keep_current: true }),
    onSuccess: async () => {
      notify.success(t('sessions.revokedAll'))
      await queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey })
    },
  })
}

export function useRevokeAccessToken() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: () => api.delete<null>('/api/user/token'),
    onSuccess: () => {
      notify.success(t('token.revoked'))
      queryClient.setQueryData(selfQueryOptions.queryKey, (old?: UserProfile) => old && { ...old, has_access_token: false })
    },
  })
}
