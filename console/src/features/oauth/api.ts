/**
 * External sign-in calls: start a redirect sign-in (a state from /api/oauth/state for
 * GitHub and Lark, the whole authorization URL from /api/oauth/endpoint for OIDC), complete a
 * callback (/api/oauth/github|lark|oidc?code&state), and WeChat with a typed code (login and
 * binding). An answer with message 'bind' means the account was bound to the signed-in user: no
 * session change, the profile is refreshed and the browser goes to /panel/profile. Anything else
 * is a login: the user is stored like a password login and the browser goes to /panel. Message
 * 'switch' means the browser is signed in as another account: nothing changed yet, and the page
 * asks before confirming with POST /api/oauth/switch.
 */
import { useEffect } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { api, request, type Envelope } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { UserProfile } from '@/stores/auth-store'
import { isSecondFactorChallenge } from '@/features/auth/second-factor'
import { selfQueryOptions, useCompleteSignIn } from '@/features/auth/api'
import { useSiteInfo } from '@/features/site/api'
import { githubAuthorizeUrl, larkAuthorizeUrl, type RedirectProvider } from './providers'
import type { PendingSwitch } from '@contract/oauth'

/** The server's message when a callback bound the account instead of signing in. */
export const BIND_MESSAGE = 'bind'
/** The server's message when the login would switch the signed-in browser to another account. */
export const SWITCH_MESSAGE = 'switch'

/**
 * Leaves for the provider's authorization page. The state is requested only now (the `oauth`
 * rate limit is small); a signed-in user's state makes the callback a binding.
 */
export function useStartOAuth() {
  const site = useSiteInfo()
  const mutation = useMutation({
    mutationFn: async (provider: RedirectProvider) => {
      if (provider === 'oidc') return api.get<string>('/api/oauth/endpoint')
      const state = await api.get<string>('/api/oauth/state')
      return provider === 'github' ? githubAuthorizeUrl(site, state) : larkAuthorizeUrl(site, state)
    },
    onSuccess: (url) => window.location.assign(url),
  })
  const { reset } = mutation
  // Coming back with the browser's Back button restores this page from the cache: re-enable the buttons.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && reset()
    window.addEventListener('pageshow', onShow)
    return () => window.removeEventListener('pageshow', onShow)
  }, [reset])
  return mutation
}

/** Applies the answer of a callback or WeChat call: a binding, a login, or a switch to confirm. */
export function useFinishExternalSignIn(onSwitch: (pending: PendingSwitch) => void = () => {}) {
  const { t } = useTranslation('oauth')
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const complete = useCompleteSignIn()
  return ({ message, data }: Envelope<UserProfile>) => {
    if (message === SWITCH_MESSAGE) {
      onSwitch(data as unknown as PendingSwitch)
      return
    }
    if (message === BIND_MESSAGE) {
      queryClient.setQueryData(selfQueryOptions.queryKey, data)
      notify.success(t('bound'))
      void navigate({ to: '/panel/profile' })
      return
    }
    if (!isSecondFactorChallenge(data)) notify.success(t('loggedIn'))
    complete(data)
  }
}

/** Confirms a held login: the browser switches to the other account. */
export function useConfirmSwitch() {
  const { t } = useTranslation('oauth')
  const complete = useCompleteSignIn()
  return useMutation({
    mutationFn: (token: string) => api.post<UserProfile>('/api/oauth/switch', { token }),
    onSuccess: (user) => {
      notify.success(t('loggedIn'))
      complete(user)
    },
  })
}

/** One attempt at a provider callback; the page retries failed attempts itself. */
export function useOAuthCallback(provider: RedirectProvider, onSwitch?: (pending: PendingSwitch) => void) {
  const finish = useFinishExternalSignIn(onSwitch)
  return useMutation({
    mutationFn: (query: { code: string; state: string }) => request<UserProfile>(`/api/oauth/${provider}`, { query }),
    onSuccess: finish,
  })
}

/** WeChat: the code the official account replied with, for a login or (signed in) a binding. */
export function useWeChatCode(mode: 'login' | 'bind', onSwitch?: (pending: PendingSwitch) => void) {
  const finish = useFinishExternalSignIn(onSwitch)
  return useMutation({
    mutationFn: (code: string) => request<UserProfile>(mode === 'bind' ? '/api/oauth/wechat/bind' : '/api/oauth/wechat', { query: { code } }),
    onSuccess: finish,
  })
}
