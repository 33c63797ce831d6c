/**
 * Alert channels (root): the list (GET /api/notify/channel/), create (POST), edit (PUT /:id),
 * delete (DELETE /:id), send test (POST /:id/test) and a channel's delivery log (GET /:id/deliveries).
 */
import { queryOptions, useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { useInvalidate } from '@/lib/list-query'
import { notify } from '@/lib/notify'
import type { Page } from '@contract/paging'
import type { NotifyChannelBody, NotifyChannelView, NotifyDeliveryView, NotifyTestResult } from '@contract/notify'

export type { NotifyChannelView, NotifyDeliveryView, NotifyTestResult } from '@contract/notify'

export const notifyKeys = { all: ['notify'] as const, channels: ['notify', 'channels'] as const, deliveries: (id: number, p: number) => ['notify', 'deliveries', id, p] as const }

export const notifyChannelsQueryOptions = queryOptions({
  queryKey: notifyKeys.channels,
  queryFn: ({ signal }) => api.get<NotifyChannelView[]>('/api/notify/channel/', undefined, signal),
})

export const deliveriesQueryOptions = (id: number, p: number) =>
  queryOptions({
    queryKey: notifyKeys.deliveries(id, p),
    queryFn: ({ signal }) => api.get<Page<NotifyDeliveryView>>(`/api/notify/channel/${id}/deliveries`, { p, page_size: 10 }, signal),
  })

export function useSaveChannel() {
  const { t } = useTranslation('notify')
  const refresh = useInvalidate(notifyKeys.all)
  return useMutation({
    mutationFn: ({ id, ...body }: NotifyChannelBody & { id?: number }) =>
      id ? api.put<NotifyChannelView>(`/api/notify/channel/${id}`, body) : api.post<NotifyChannelView>('/api/notify/channel/', body),
    onSuccess: (_, vars) => {
      refresh()
      notify.success(vars.id ? t('toast.updated') : t('toast.created'))
    },
  })
}

export function useDeleteChannel() {
  const { t } = useTranslation('notify')
  const refresh = useInvalidate(notifyKeys.all)
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/notify/channel/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}

export function useTestChannel() {
  const { t } = useTranslation('notify')
  const refresh = useInvalidate(notifyKeys.all)
  return useMutation({
    mutationFn: (id: number) => api.post<NotifyTestResult>(`/api/notify/channel/${id}/test`),
    onSuccess: (r) => {
      refresh()
      if (r.ok) notify.success(t('toast.testSent'))
      else notify.error(t('toast.testFailed', { error: r.error || `HTTP ${r.http_status}` }))
    },
  })
}
