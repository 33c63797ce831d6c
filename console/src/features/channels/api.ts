/**
 * Channel administration calls (admin, /api/channel/*): the filtered list, one channel with its
 * key, the type catalogue, tags and groups; create / update / inline patch / copy / delete, batch
 * edits, speed tests, balance refreshes (when the server offers them) and the supplier's live model
 * list, and the operations on a whole tag. Every write refreshes the channel queries; success toasts
 * use this feature's texts.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api, isApiError, request } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type {
  BalanceRefreshSummary,
  Channel,
  ChannelBalance,
  ChannelBatchValue,
  ChannelBody,
  ChannelPatch,
  ChannelTagResult,
  ChannelTestResult,
  ChannelType,
  ProviderModelsBody,
  TagPriorityBody,
} from '@contract/channels'
import type { Page } from '@contract/paging'

export interface ChannelListSearch {
  p?: number
  page_size?: number
  order?: string
  name?: string
  type?: number
  status?: number
  group?: string
  model?: string
  tag?: string
}

export const channelKeys = {
  all: ['channels'] as const,
  lists: ['channels', 'list'] as const,
  list: (search: ChannelListSearch) => ['channels', 'list', search] as const,
  detail: (id: number) => ['channels', 'detail', id] as const,
  types: ['channels', 'types'] as const,
  tags: ['channels', 'tags'] as const,
  groups: ['channels', 'groups'] as const,
  balanceSupport: ['channels', 'balance-support'] as const,
}

export const channelsQueryOptions = (search: ChannelListSearch) =>
  queryOptions({
    queryKey: channelKeys.list(search),
    queryFn: ({ signal }) => api.get<Page<Channel>>('/api/channel/', { ...search }, signal),
    placeholderData: keepPreviousData,
  })

export const channelQueryOptions = (id: number) =>
  queryOptions({ queryKey: channelKeys.detail(id), queryFn: ({ signal }) => api.get<Channel>(`/api/channel/${id}`, undefined, signal), staleTime: 0 })

export const channelTypesQueryOptions = queryOptions({
  queryKey: channelKeys.types,
  queryFn: ({ signal }) => api.get<ChannelType[]>('/api/channel/types', undefined, signal),
  staleTime: Infinity,
})

export const channelTagsQueryOptions = queryOptions({
  queryKey: channelKeys.tags,
  queryFn: ({ signal }) => api.get<string[]>('/api/channel/tags', undefined, signal),
})

export const groupsQueryOptions = queryOptions({
  queryKey: channelKeys.groups,
  queryFn: ({ signal }) => api.get<string[]>('/api/group/', undefined, signal),
  staleTime: 60_000,
})

/**
 * Whether the server has the balance-refresh endpoints. A route that does not exist answers
 * 404 with code route_not_found; an existing one refuses the id 0 with a 400 (or "Channel not found").
 * The probe never refreshes anything.
 */
export const balanceSupportQueryOptions = queryOptions({
  queryKey: channelKeys.balanceSupport,
  queryFn: async () => {
    try {
      await api.get('/api/channel/update_balance/0')
      return true
    } catch (err) {
      return !(isApiError(err) && err.code === 'route_not_found')
    }
  },
  staleTime: Infinity,
  meta: { silent: true },
})

/** Refreshes every channel query (lists, tags, details) after a write. */
function useInvalidateChannels() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: channelKeys.all, predicate: (q) => q.queryKey[1] !== 'types' && q.queryKey[1] !== 'balance-support' })
}

export function useCreateChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (body: ChannelBody) => api.post<Channel[]>('/api/channel/', body),
    onSuccess: async (created) => {
      notify.success(created.length > 1 ? t('toast.createdMany', { count: created.length }) : t('toast.created'))
      await invalidate()
    },
  })
}

export function useUpdateChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (body: ChannelBody & { id: number }) => api.put<Channel>('/api/channel/', body),
    onSuccess: async () => {
      notify.success(t('toast.updated'))
      await invalidate()
    },
  })
}

/** Inline edits from the list: priority, weight, enable/disable. */
export function usePatchChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (patch: ChannelPatch) => request<Channel>('/api/channel/', { method: 'PATCH', body: patch }).then((r) => r.data),
    onSuccess: async (_row, patch) => {
      notify.success('status' in patch ? (patch.status === 1 ? t('toast.enabled') : t('toast.disabled')) : t('toast.updated'))
      await invalidate()
    },
  })
}

export function useCopyChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (id: number) => api.post<Channel>(`/api/channel/copy/${id}`),
    onSuccess: async (row) => {
      notify.success(t('toast.copied', { name: row.name }))
      await invalidate()
    },
  })
}

export function useDeleteChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (id: number) => api.delete<number>(`/api/channel/${id}`),
    onSuccess: async () => {
      notify.success(t('toast.deleted'))
      await invalidate()
    },
  })
}

export function useBatchDeleteChannels() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (ids: number[]) => request<number>('/api/channel/batch', { method: 'DELETE', body: { ids } }).then((r) => r.data),
    onSuccess: async (count) => {
      notify.success(t('toast.deletedMany', { count }))
      await invalidate()
    },
  })
}

export function useDeleteDisabledChannels() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: () => api.delete<number>('/api/channel/disabled'),
    onSuccess: async (count) => {
      notify.success(t('toast.deletedMany', { count }))
      await invalidate()
    },
  })
}

/** PUT /api/channel/batch/del_model or /azure_api: {ids, value} → number of channels changed. */
export function useBatchEditChannels(kind: 'del_model' | 'azure_api') {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (body: ChannelBatchValue) => api.put<number>(`/api/channel/batch/${kind}`, body),
    onSuccess: async (count) => {
      notify.success(t('toast.batchUpdated', { count }))
      await invalidate()
    },
  })
}

/** One speed test; success shows the seconds taken, a failure the server's reason (global toast). */
export function useTestChannel() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: ({ id, model }: { id: number; model?: string }) => api.get<ChannelTestResult>(`/api/channel/test/${id}`, { model }),
    onSuccess: (result) => notify.success(t('toast.testSuccess', { seconds: result.time.toFixed(2) })),
    // A failed test also saves its time on the channel.
    onSettled: () => invalidate(),
  })
}

export function useTestAllChannels() {
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: () => api.get<null>('/api/channel/test'),
    onSuccess: () => notify.info(t('toast.testAllStarted')),
  })
}

export function useRefreshBalance() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: (id: number) => api.get<ChannelBalance>(`/api/channel/update_balance/${id}`),
    onSuccess: async ({ balance }) => {
      notify.success(t('toast.balanceUpdated', { balance: `$${Number(balance ?? 0).toFixed(2)}` }))
      await invalidate()
    },
  })
}

export function useRefreshAllBalances() {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  return useMutation({
    mutationFn: () => api.get<BalanceRefreshSummary>('/api/channel/update_balance'),
    onSuccess: async ({ updated, failed }) => {
      if (failed > 0) notify.warning(t('toast.balancesPartly', { updated, failed }))
      else notify.success(t('toast.balancesUpdated', { count: updated }))
      await invalidate()
    },
  })
}

/** The supplier's live model list for the unsaved form (POST /api/channel/provider_models_list). */
export function useProviderModels() {
  return useMutation({
    mutationFn: (body: ProviderModelsBody) => api.post<string[]>('/api/channel/provider_models_list', body),
    meta: { silent: true },
  })
}

/** One-hub's operations on every channel of a tag (PUT/DELETE /api/channel_tag/:tag…). */
export type TagOperation = { kind: 'priority' | 'weight'; value: number } | { kind: 'enable' | 'disable' | 'delete' }

export function useTagOperation(tag: string) {
  const invalidate = useInvalidateChannels()
  const { t } = useTranslation('channels')
  const path = `/api/channel_tag/${encodeURIComponent(tag)}`
  return useMutation({
    mutationFn: (op: TagOperation) => {
      if (op.kind === 'priority' || op.kind === 'weight') return api.put<ChannelTagResult>(`${path}/priority`, { type: op.kind, value: op.value } satisfies TagPriorityBody)
      if (op.kind === 'delete') return api.delete<ChannelTagResult>(path)
      return api.put<ChannelTagResult>(`${path}/status/${op.kind}`)
    },
    onSuccess: async (result, op) => {
      notify.success(t(`tagOps.done.${op.kind}`, { count: result.channel_ids.length, tag }))
      await invalidate()
    },
  })
}
