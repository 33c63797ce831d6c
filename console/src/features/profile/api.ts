/** Own-account calls of the profile page: update (PUT /api/user/self) and the access token (GET /api/user/token). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { UserProfile } from '@/stores/auth-store'
import { selfQueryOptions } from '@/features/auth/api'

export interface UpdateSelfBody {
  username?: string
  display_name?: string
  password?: string
  original_password?: string
}

export function useUpdateSelf() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: (body: UpdateSelfBody) => api.put<UserProfile>('/api/user/self', body),
    onSuccess: (user) => {
      // The console layout copies the new profile into the stored user.
      queryClient.setQueryData(selfQueryOptions.queryKey, user)
      notify.success(t('updated'))
    },
  })
}

/** Generates (or replaces) the personal access token; the server shows it only in this answer. */
export function useGenerateAccessToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.get<string>('/api/user/token'),
    onSuccess: () =>
      queryClient.setQueryData(selfQueryOptions.queryKey, (old?: UserProfile) => old && { ...old, has_access_token: true }),
  })
}
