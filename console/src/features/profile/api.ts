/**
 * Own-account calls of the profile page: update (PUT /api/user/self), the access token
 * (GET /api/user/token), binding an email with a code (GET /api/oauth/email/bind) and unbinding a
 * sign-in method (POST /api/user/unbind). Each answers with the new profile, which replaces the cached one.
 * Telegram: a one-time bind code (POST /api/user/telegram/code), unbinding (DELETE /api/user/telegram)
 * and the notices switch (GET/PUT /api/user/telegram).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { UserProfile } from '@/stores/auth-store'
import { selfQueryOptions } from '@/features/auth/api'
import type { BindingType } from '@/features/oauth/providers'
import type { TelegramBindCode } from '@contract/telegram'
import type { UpdateSelfBody } from '@contract/users'

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
    onSuccess: () => queryClient.setQueryData(selfQueryOptions.queryKey, (old?: UserProfile) => old && { ...old, has_access_token: true }),
  })
}

export function useBindEmail() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('oauth')
  return useMutation({
    mutationFn: (query: { email: string; code: string }) => api.get<UserProfile>('/api/oauth/email/bind', query),
    onSuccess: (user) => {
      queryClient.setQueryData(selfQueryOptions.queryKey, user)
      notify.success(t('email.bound'))
    },
  })
}

/** Refused (400) when it is the only way left to sign in; the server's message says so. */
export function useUnbind() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('oauth')
  return useMutation({
    mutationFn: (type: BindingType) => api.post<UserProfile>('/api/user/unbind', { type }),
    onSuccess: (user) => {
      queryClient.setQueryData(selfQueryOptions.queryKey, user)
      notify.success(t('binding.unbound'))
    },
  })
}

/** A fresh one-time code for `/bind <code>` (POST /api/user/telegram/code; any earlier code stops working). */
export function useTelegramBindCode() {
  return useMutation({ mutationFn: () => api.post<TelegramBindCode>('/api/user/telegram/code') })
}

/** Unbinds the Telegram chat (DELETE /api/user/telegram), then reloads the profile. */
export function useUnbindTelegram() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('oauth')
  return useMutation({
    mutationFn: () => api.delete<null>('/api/user/telegram'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: selfQueryOptions.queryKey })
      notify.success(t('binding.unbound'))
    },
  })
}

export const telegramBindingQueryOptions = queryOptions({
  queryKey: ['profile', 'telegram'] as const,
  queryFn: ({ signal }) => api.get<{ enabled: boolean; bot_username: string; telegram_id: number; notify: boolean }>('/api/user/telegram', undefined, signal),
})

/** Notices (low balance, payments, finished tasks) to the bound chat on or off (PUT /api/user/telegram). */
export function useTelegramNotify() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (notify: boolean) => api.put<{ notify: boolean }>('/api/user/telegram', { notify }),
    onSuccess: (data) => {
      queryClient.setQueryData(telegramBindingQueryOptions.queryKey, (old) => old && { ...old, notify: data.notify })
    },
  })
}
