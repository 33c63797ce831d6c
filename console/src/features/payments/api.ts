/**
 * Payment calls. Admin: gateways (GET/POST/PUT /api/payment/, GET/DELETE /api/payment/:id, the
 * per-type config fields from /api/payment/types) and orders (GET /api/payment/order with filters,
 * POST /api/payment/order/:id/refund). Users: enabled gateways (GET /api/user/payment), ordering
 * (POST /api/user/order), own orders (GET /api/user/order) and the paid check polled by the QR
 * dialog (GET /api/user/order/status, which answers success only once the order is paid).
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { Page } from '@contract/paging'
import {
  GATEWAY_TYPES,
  ORDER_STATUSES,
  type ConfigField,
  type Gateway,
  type GatewayBody,
  type GatewayDetail,
  type GatewayPatch,
  type GatewayTypeInfo,
  type Order,
  type OrderBody,
  type OrderStatus,
  type PlacedOrder,
  type UserGateway,
} from '@contract/payments'
import { apiCredentials, apiUrl } from '@/lib/api-origin'

export type { ConfigField, Gateway, GatewayDetail, GatewayTypeInfo, Order, OrderStatus, PlacedOrder, UserGateway }
export { GATEWAY_TYPES, ORDER_STATUSES }

export interface OrderSearch {
  p?: number
  page_size?: number
  order?: string
  status?: OrderStatus
  gateway_id?: number
  user_id?: number
  trade_no?: string
  gateway_no?: string
  start_timestamp?: number
  end_timestamp?: number
}

export const paymentKeys = {
  all: ['payments'] as const,
  gateways: ['payments', 'gateways'] as const,
  gateway: (id: number) => ['payments', 'gateway', id] as const,
  types: ['payments', 'types'] as const,
  orders: (search: OrderSearch) => ['payments', 'orders', search] as const,
  userGateways: ['payments', 'user-gateways'] as const,
  myOrders: (p: number) => ['payments', 'my-orders', p] as const,
}

export const gatewaysQueryOptions = queryOptions({
  queryKey: paymentKeys.gateways,
  queryFn: ({ signal }) => api.get<Page<Gateway>>('/api/payment/', { page_size: 100 }, signal),
})

export const gatewayQueryOptions = (id: number) =>
  queryOptions({ queryKey: paymentKeys.gateway(id), queryFn: ({ signal }) => api.get<GatewayDetail>(`/api/payment/${id}`, undefined, signal), staleTime: 0, gcTime: 0 })

export const gatewayTypesQueryOptions = queryOptions({
  queryKey: paymentKeys.types,
  queryFn: ({ signal }) => api.get<GatewayTypeInfo[]>('/api/payment/types', undefined, signal),
  staleTime: Infinity,
})

export const ordersQueryOptions = (search: OrderSearch) =>
  queryOptions({
    queryKey: paymentKeys.orders(search),
    queryFn: ({ signal }) => api.get<Page<Order>>('/api/payment/order', { ...search }, signal),
    placeholderData: keepPreviousData,
  })

/** The CSV download of the filtered orders (admin) or of the user's own (same-origin GET with the session cookie). */
export function ordersExportUrl(search?: OrderSearch): string {
  if (!search) return apiUrl('/api/user/order/export')
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(search)) if (k !== 'p' && k !== 'page_size' && v !== undefined && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return apiUrl(`/api/payment/order/export${qs ? `?${qs}` : ''}`)
}

export const userGatewaysQueryOptions = queryOptions({
  queryKey: paymentKeys.userGateways,
  queryFn: ({ signal }) => api.get<UserGateway[]>('/api/user/payment', undefined, signal),
})

export const myOrdersQueryOptions = (p: number) =>
  queryOptions({
    queryKey: paymentKeys.myOrders(p),
    queryFn: ({ signal }) => api.get<Page<Order>>('/api/user/order', { p, page_size: 5 }, signal),
    placeholderData: keepPreviousData,
  })

/** Whether the order is paid (the endpoint answers success: true only then). */
export async function orderPaid(tradeNo: string, signal?: AbortSignal): Promise<{ paid: boolean; status: OrderStatus | undefined }> {
  const res = await fetch(apiUrl(`/api/user/order/status?trade_no=${encodeURIComponent(tradeNo)}`), {
    credentials: apiCredentials,
    signal,
    headers: { Accept: 'application/json' },
  })
  const body = (await res.json().catch(() => ({}))) as { success?: boolean; data?: { status?: OrderStatus } }
  return { paid: body.success === true, status: body.data?.status }
}

function useRefresh() {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey: paymentKeys.all })
}

export function useSaveGateway() {
  const { t } = useTranslation('payments')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: GatewayBody & { id?: number }) => (body.id ? api.put<GatewayDetail>('/api/payment/', body) : api.post<GatewayDetail>('/api/payment/', body)),
    onSuccess: (_, body) => {
      refresh()
      notify.success(body.id ? t('toast.updated') : t('toast.created'))
    },
  })
}

export function useToggleGateway() {
  const { t } = useTranslation('payments')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: GatewayPatch) => api.put<GatewayDetail>('/api/payment/', body),
    onSuccess: (_, body) => {
      refresh()
      notify.success(body.enable ? t('toast.enabled') : t('toast.disabled'))
    },
  })
}

export function useDeleteGateway() {
  const { t } = useTranslation('payments')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/payment/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}

export function useRefundOrder() {
  const { t } = useTranslation('payments')
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (id: number) => api.post<Order>(`/api/payment/order/${id}/refund`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.refunded'))
    },
  })
}

export function usePlaceOrder() {
  return useMutation({ mutationFn: (body: OrderBody) => api.post<PlacedOrder>('/api/user/order', body) })
}
