/**
 * Passkey calls of the console: the owner's list (GET /api/user/passkey), adding one (options from
 * the server → the browser's WebAuthn prompt via @simplewebauthn/browser → verify), renaming and
 * deleting; and the usernameless sign-in of the login page, which ends like a password login.
 * A prompt the user closes becomes one translated "cancelled" error instead of the browser's text.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { startRegistration } from '@simplewebauthn/browser'
import type { PasskeyView } from '@contract/passkeys'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { UserProfile } from '@/stores/auth-store'
import { passkeyAssertion, webauthnPrompt } from '@/lib/webauthn'
import { useCompleteSignIn } from '@/features/auth/api'

export const passkeysQueryOptions = queryOptions({
  queryKey: ['profile', 'passkeys'] as const,
  queryFn: ({ signal }) => api.get<PasskeyView[]>('/api/user/passkey', undefined, signal),
})

type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON']

export function useAddPasskey() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: async (name: string) => {
      const optionsJSON = await api.post<RegistrationOptions>('/api/user/passkey/register/options')
      const response = await webauthnPrompt(() => startRegistration({ optionsJSON }), t('passkeys.cancelled'))
      return api.post<PasskeyView>('/api/user/passkey/register', { name, response })
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysQueryOptions.queryKey })
      notify.success(t('passkeys.added'))
    },
  })
}

export function useRenamePasskey() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => api.put<PasskeyView>(`/api/user/passkey/${id}`, { name }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysQueryOptions.queryKey })
      notify.success(t('passkeys.renamed'))
    },
  })
}

export function useDeletePasskey() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('profile')
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/user/passkey/${id}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysQueryOptions.queryKey })
      notify.success(t('passkeys.deleted'))
    },
  })
}

/** Usernameless sign-in: the browser offers the passkeys it holds for this site. */
export function usePasskeySignIn() {
  const complete = useCompleteSignIn()
  const { t } = useTranslation('auth')
  return useMutation({
    mutationFn: async () => {
      const response = await passkeyAssertion('/api/user/passkey/login/options', t('passkey.cancelled'))
      return api.post<UserProfile>('/api/user/passkey/login', { response })
    },
    onSuccess: (user) => {
      notify.success(t('login.success'))
      complete(user)
    },
  })
}
