/**
 * Calls of the pricing page: prices (GET /api/prices, single and merged edits, deletes, sync from
 * a remote list), the unpriced-model catalogue, the supplier (channel type) names, the default
 * price-list URL, and user groups (/api/user_group/). Mutations invalidate what they change.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { ChannelType } from '@contract/channels'
import type { UserGroup, UserGroupBody } from '@contract/groups'
import type { ExtraRatios, MergedPriceBody, ModelCatalogue, Price, PriceBody, PriceSyncMode, RemotePrice, SyncResult } from '@contract/pricing'

export type { ExtraRatios, ModelCatalogue, Price, SyncResult }

export const pricingKeys = {
  prices: ['pricing', 'prices'] as const,
  catalogue: ['pricing', 'model-list'] as const,
  channelTypes: ['pricing', 'channel-types'] as const,
  updateService: ['pricing', 'update-service'] as const,
  groups: ['pricing', 'user-groups'] as const,
}

export const pricesQueryOptions = queryOptions({
  queryKey: pricingKeys.prices,
  queryFn: () => api.get<Price[]>('/api/prices'),
})

export const catalogueQueryOptions = queryOptions({
  queryKey: pricingKeys.catalogue,
  queryFn: () => api.get<ModelCatalogue>('/api/prices/model_list'),
})

export const channelTypesQueryOptions = queryOptions({
  queryKey: pricingKeys.channelTypes,
  queryFn: async () => (await api.get<Pick<ChannelType, 'id' | 'name'>[]>('/api/channel/types')).map(({ id, name }) => ({ id, name })),
  staleTime: Infinity,
})

export const updateServiceQueryOptions = queryOptions({
  queryKey: pricingKeys.updateService,
  queryFn: () => api.get<string>('/api/prices/updateService'),
  staleTime: Infinity,
})

export const groupsQueryOptions = queryOptions({
  queryKey: pricingKeys.groups,
  queryFn: () => api.get<UserGroup[]>('/api/user_group/'),
})

const priceUrl = (model: string) => `/api/prices/single/${encodeURIComponent(model)}`

/** Every price write changes the list and what counts as unpriced. */
function useInvalidatePrices() {
  const queryClient = useQueryClient()
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: pricingKeys.prices }), queryClient.invalidateQueries({ queryKey: pricingKeys.catalogue })])
}

export function useCreatePrice() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: (body: PriceBody) => api.post<Price>('/api/prices/single', body),
    onSuccess: async () => {
      await invalidate()
      notify.success(t('messages.created'))
    },
  })
}

export function useUpdatePrice() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: ({ model, body }: { model: string; body: PriceBody }) => api.put<Price>(priceUrl(model), body),
    onSuccess: async () => {
      await invalidate()
      notify.success(t('messages.updated'))
    },
  })
}

/** Flips the lock of one row (PUT with every field and `locked` inverted). */
export function useToggleLock() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: ({ id: _id, ...price }: Price) => api.put<Price>(priceUrl(price.model), { ...price, locked: !price.locked }),
    onSuccess: async (price) => {
      await invalidate()
      notify.success(price.locked ? t('messages.locked', { model: price.model }) : t('messages.unlocked', { model: price.model }))
    },
  })
}

/** One model through DELETE /api/prices/single/<model>, several through PUT /api/prices/multiple/delete. */
export function useDeletePrices() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: (models: string[]) => (models.length === 1 ? api.delete<number>(priceUrl(models[0])) : api.put<number>('/api/prices/multiple/delete', { models })),
    onSuccess: async (_count, models) => {
      await invalidate()
      notify.success(t('messages.deleted', { count: models.length }))
    },
  })
}

export function useSaveMerged() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: (body: MergedPriceBody) => api.post<null>('/api/prices/multiple', body),
    onSuccess: async () => {
      await invalidate()
      notify.success(t('messages.saved'))
    },
  })
}

export function useSyncPrices() {
  const invalidate = useInvalidatePrices()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: ({ mode, list }: { mode: PriceSyncMode; list: RemotePrice[] }) => api.post<SyncResult>(`/api/prices/sync?updateMode=${mode}`, list),
    onSuccess: async () => {
      await invalidate()
      notify.success(t('updates.applied'))
    },
  })
}

function useInvalidateGroups() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: pricingKeys.groups })
}

export function useSaveGroup() {
  const invalidate = useInvalidateGroups()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: UserGroupBody }) =>
      id === undefined ? api.post<UserGroup>('/api/user_group/', body) : api.put<UserGroup>('/api/user_group/', { ...body, id }),
    onSuccess: async (_group, { id }) => {
      await invalidate()
      notify.success(id === undefined ? t('messages.created') : t('messages.updated'))
    },
  })
}

export function useToggleGroup() {
  const invalidate = useInvalidateGroups()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: (id: number) => api.put<UserGroup>(`/api/user_group/enable/${id}`),
    onSuccess: async (group) => {
      await invalidate()
      notify.success(group.enable ? t('groups.enabled', { name: group.name }) : t('groups.disabled', { name: group.name }))
    },
  })
}

export function useDeleteGroup() {
  const invalidate = useInvalidateGroups()
  const { t } = useTranslation('pricing')
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/user_group/${id}`),
    onSuccess: async () => {
      await invalidate()
      notify.success(t('messages.deleted', { count: 1 }))
    },
  })
}
