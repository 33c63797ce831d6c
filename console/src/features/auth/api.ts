/**
 * Account calls of the console (session transitions): who am I, setup, login, register,
 * verification code, password reset and logout. Signing in (here or through an external account)
 * stores the user and goes to /panel; signing out clears it and goes to /. Login, register, the
 * verification code and the reset mail carry the Turnstile token when the site asks for one.
 */
import { useEffect } from 'react'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { api, isApiError } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import { authStore, type UserProfile } from '@/stores/auth-store'
import { siteInfoQueryOptions } from '@/features/site/api'
import type { SiteInfo } from '@contract/site'
import { isSecondFactorChallenge, markSecondFactorPending } from './second-factor'
import type { Credentials, RegisterBody, RegisteredUser, ResetConfirmBody, ResetRequest, SetupBody, VerificationRequest, WithTurnstile } from '@contract/auth'
import type { SecondFactorChallenge } from '@contract/two-factor'

export const selfQueryOptions = queryOptions({
  queryKey: ['user', 'self'],
  queryFn: () => api.get<UserProfile>('/api/user/self'),
  staleTime: 0,
})

/** The signed-in user's profile from the server; keeps the stored user in step with it. */
export function useSelf() {
  const query = useQuery(selfQueryOptions)
  useEffect(() => {
    if (query.data) authStore.setUser(query.data)
  }, [query.data])
  return query
}

/**
 * Stores the signed-in user and opens the console (password, setup and external logins alike); an
 * account with two-factor sign-in answers a challenge instead, and /login asks for the code.
 */
export function useCompleteSignIn() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return (user: UserProfile | SecondFactorChallenge) => {
    if (isSecondFactorChallenge(user)) {
      markSecondFactorPending(user.methods)
      void navigate({ to: '/login' })
      return
    }
    authStore.setUser(user)
    queryClient.setQueryData(selfQueryOptions.queryKey, user)
    void navigate({ to: '/panel' })
  }
}

export function useLogin() {
  const complete = useCompleteSignIn()
  const { t } = useTranslation('auth')
  return useMutation({
    mutationFn: (body: Credentials & WithTurnstile) => api.post<UserProfile | SecondFactorChallenge>('/api/user/login', body),
    onSuccess: (user) => {
      if (!isSecondFactorChallenge(user)) notify.success(t('login.success'))
      complete(user)
    },
  })
}

export function useSetup() {
  const complete = useCompleteSignIn()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: (body: SetupBody) => api.post<UserProfile>('/api/setup', body),
    onSuccess: (user) => {
      queryClient.setQueryData(siteInfoQueryOptions.queryKey, (old?: SiteInfo) => old && { ...old, setup_needed: false })
      complete(user)
    },
    onError: async (err) => {
      // Someone else finished the setup first: the site info is stale, the account exists.
      if (isApiError(err) && err.code === 'conflict') {
        await queryClient.invalidateQueries({ queryKey: siteInfoQueryOptions.queryKey })
        void navigate({ to: '/login' })
      }
    },
  })
}

export function useRegister() {
  const navigate = useNavigate()
  const { t } = useTranslation('auth')
  return useMutation({
    mutationFn: (body: RegisterBody & WithTurnstile) => api.post<RegisteredUser>('/api/user/register', body),
    onSuccess: () => {
      notify.success(t('register.success'))
      void navigate({ to: '/login' })
    },
  })
}

export function useSendVerificationCode() {
  const { t } = useTranslation('auth')
  return useMutation({
    mutationFn: (query: VerificationRequest & WithTurnstile) => api.get<null>('/api/verification', { ...query }),
    onSuccess: () => notify.success(t('register.codeSent')),
  })
}

export function useSendResetEmail() {
  return useMutation({
    mutationFn: (query: ResetRequest & WithTurnstile) => api.get<null>('/api/reset_password', { ...query }),
  })
}

/** Returns the new password chosen by the server. */
export function useConfirmReset() {
  return useMutation({
    mutationFn: (body: ResetConfirmBody) => api.post<string>('/api/user/reset', body),
  })
}

export function useSignOut() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: () => api.get<null>('/api/user/logout'),
    meta: { silent: true },
    onSettled: async () => {
      await navigate({ to: '/' })
      authStore.clear()
      queryClient.removeQueries({ queryKey: ['user'] })
    },
  })
}
