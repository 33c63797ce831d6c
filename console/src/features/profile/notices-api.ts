/** The profile's own notices: the switches (GET/PUT /api/user/notices), saved one toggle at a time. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { UserNoticePrefs, UserNoticesView } from '@contract/notify'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'

export const noticesQueryOptions = queryOptions({
  queryKey: ['profile', 'notices'] as const,
  queryFn: ({ signal }) => api.get<UserNoticesView>('/api/user/notices', undefined, signal),
})

export function useSaveNotices() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: (prefs: UserNoticePrefs) => api.put<UserNoticesView>('/api/user/notices', prefs),
    onSuccess: (data) => {
      queryClient.setQueryData(noticesQueryOptions.queryKey, data)
      notify.success(t('notices.saved'))
    },
  })
}
