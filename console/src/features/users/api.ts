/**
 * User administration calls (admin): the paged list (GET /api/user/), the enabled groups
 * (GET /api/group/), create / edit (POST, PUT /api/user/), the manage actions (POST
 * /api/user/manage), quota changes (POST /api/user/quota/:id) and a user's sign-in methods
 * (GET, DELETE /api/user/:id/sign_in_methods). Every mutation refreshes the list.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import { selfQueryOptions } from '@/features/auth/api'
import type { ListSearch, Page } from '@contract/paging'
import type { AdminUser, CreateUserBody, ManageUserBody, QuotaChangeBody, QuotaChangeResult, SignInMethod, SignInMethodType, UpdateUserBody } from '@contract/users'
import type { AdminTwoFactorView } from '@contract/two-factor'

export type UserListSearch = ListSearch

export const userKeys = {
  all: ['users'] as const,
  list: (search: UserListSearch) => ['users', 'list', search] as const,
  groups: ['users', 'groups'] as const,
}

export const usersQueryOptions = (search: UserListSearch) =>
  queryOptions({
    queryKey: userKeys.list(search),
    queryFn: ({ signal }) => api.get<Page<AdminUser>>('/api/user/', { p: search.p, page_size: search.page_size, order: search.order, keyword: search.keyword }, signal),
    placeholderData: keepPreviousData,
  })

/** The enabled group symbols a user can be put in. */
export const groupsQueryOptions = queryOptions({
  queryKey: userKeys.groups,
  queryFn: () => api.get<string[]>('/api/group/'),
  staleTime: 60_000,
})

function useRefresh() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: userKeys.all })
    // The signed-in admin may have changed their own account.
    void queryClient.invalidateQueries({ queryKey: selfQueryOptions.queryKey })
  }
}

export function useCreateUser() {
  const { t } = useTranslation('users')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: CreateUserBody) => api.post<AdminUser>('/api/user/', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.created'))
    },
  })
}

export function useUpdateUser() {
  const { t } = useTranslation('users')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: UpdateUserBody) => api.put<AdminUser>('/api/user/', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.updated'))
    },
  })
}

export function useManageUser() {
  const { t } = useTranslation('users')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: ManageUserBody) => api.post<AdminUser | null>('/api/user/manage', body),
    onSuccess: (_data, { action }) => {
      refresh()
      notify.success(t(`toast.${action}`))
    },
  })
}

export function useChangeQuota() {
  const { t } = useTranslation('users')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ id, ...body }: QuotaChangeBody & { id: number }) => api.post<QuotaChangeResult>(`/api/user/quota/${id}`, body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.quotaChanged'))
    },
  })
}

/** A user's bound sign-in methods as the admin sees them (GET /api/user/:id/sign_in_methods). */
export const signInMethodsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['users', 'sign-in-methods', id] as const,
    queryFn: ({ signal }) => api.get<SignInMethod[]>(`/api/user/${id}/sign_in_methods`, undefined, signal),
  })

/** Unbind one method for the user (DELETE /api/user/:id/sign_in_methods/:type); refreshes the list and the user rows. */
export function useAdminUnbind(id: number) {
  const { t } = useTranslation('users')
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (type: SignInMethodType) => api.delete<SignInMethod[]>(`/api/user/${id}/sign_in_methods/${type}`),
    onSuccess: (methods) => {
      queryClient.setQueryData(signInMethodsQueryOptions(id).queryKey, methods)
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
      notify.success(t('toast.unbound'))
    },
  })
}

export const twoFactorQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['users', '2fa', id] as const,
    queryFn: ({ signal }) => api.get<AdminTwoFactorView>(`/api/user/${id}/2fa`, undefined, signal),
  })

/** Root's reset of a user's second factors (DELETE /api/user/:id/2fa: TOTP, backup codes, passkeys). */
export function useResetTwoFactor(id: number) {
  const { t } = useTranslation('users')
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete<null>(`/api/user/${id}/2fa`),
    onSuccess: () => {
      queryClient.setQueryData(twoFactorQueryOptions(id).queryKey, { methods: [], passkeys: 0 })
      notify.success(t('twoFactor.done'))
    },
  })
}
