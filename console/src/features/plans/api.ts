/**
 * Subscription plan calls: the published plans (GET /api/plan/available) and the caller's own
 * subscriptions (GET /api/user/subscription) for every user; for admins the plan list (GET
 * /api/plan/), create / edit / delete (POST /api/plan/, PUT and DELETE /api/plan/:id), grant (POST
 * /api/plan/grant), a user's subscriptions (GET /api/plan/subscriptions?user_id=), revoke (POST
 * /api/plan/revoke) and extend (POST /api/plan/extend); buying a plan through a payment gateway
 * (POST /api/plan/subscribe, answered like a top-up order) and switching auto-renew of one's own
 * subscription (PUT /api/user/subscription/:id) and paying its renewal order (POST
 * /api/user/subscription/:id/renew). Every mutation refreshes every plan query.
 */
import { queryOptions, useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { useInvalidate } from '@/lib/list-query'
import { notify } from '@/lib/notify'
import type { Plan, PlanBody, PlanDurationUnit, PlanSubscribeBody, SubscriptionView } from '@contract/plans'
import type { PlacedOrder } from '@contract/payments'

export type { Plan, SubscriptionView } from '@contract/plans'

export const planKeys = {
  all: ['plans'] as const,
  list: ['plans', 'list'] as const,
  available: ['plans', 'available'] as const,
  mine: ['plans', 'mine'] as const,
  ofUser: (userId: number) => ['plans', 'subscriptions', userId] as const,
}

export const plansQueryOptions = queryOptions({
  queryKey: planKeys.list,
  queryFn: ({ signal }) => api.get<Plan[]>('/api/plan/', undefined, signal),
})

export const availablePlansQueryOptions = queryOptions({
  queryKey: planKeys.available,
  queryFn: ({ signal }) => api.get<Plan[]>('/api/plan/available', undefined, signal),
})

export const mySubscriptionsQueryOptions = queryOptions({
  queryKey: planKeys.mine,
  queryFn: ({ signal }) => api.get<SubscriptionView[]>('/api/user/subscription', undefined, signal),
})

export const userSubscriptionsQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: planKeys.ofUser(userId),
    queryFn: ({ signal }) => api.get<SubscriptionView[]>('/api/plan/subscriptions', { user_id: userId }, signal),
  })

const useRefresh = () => useInvalidate(planKeys.all)

export function useSavePlan() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PlanBody }) => (id ? api.put<Plan>(`/api/plan/${id}`, body) : api.post<Plan>('/api/plan/', body)),
    onSuccess: (_, vars) => {
      refresh()
      notify.success(vars.id ? t('toast.updated') : t('toast.created'))
    },
  })
}

export function useDeletePlan() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/plan/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}

export function useGrantPlan() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { user_id: number; plan_id: number; key: string }) => api.post<SubscriptionView>('/api/plan/grant', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.granted'))
    },
  })
}

export function useRevokeSubscription() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { subscription_id: number; refund: boolean }) => api.post<unknown>('/api/plan/revoke', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.revoked'))
    },
  })
}

export function useExtendSubscription() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { subscription_id: number; duration_unit: Exclude<PlanDurationUnit, 'unlimited'>; duration_count: number }) => api.post<unknown>('/api/plan/extend', body),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.extended'))
    },
  })
}

/** Places a plan order; the caller continues like a top-up (the gateway's page or its QR code). */
export function useSubscribePlan() {
  return useMutation({ mutationFn: (body: PlanSubscribeBody) => api.post<PlacedOrder>('/api/plan/subscribe', body) })
}

/** Switches auto-renew of one of the caller's own subscriptions. */
export function useSetAutoRenew() {
  const { t } = useTranslation('plans')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ id, auto_renew }: { id: number; auto_renew: boolean }) => api.put<SubscriptionView>(`/api/user/subscription/${id}`, { auto_renew }),
    onSuccess: (_, vars) => {
      refresh()
      notify.success(vars.auto_renew ? t('toast.autoRenewOn') : t('toast.autoRenewOff'))
    },
  })
}

/** Starts the payment of a subscription's renewal order; the caller continues like a top-up. */
export function usePayRenewal() {
  return useMutation({ mutationFn: (id: number) => api.post<PlacedOrder>(`/api/user/subscription/${id}/renew`) })
}
