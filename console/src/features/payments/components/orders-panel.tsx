/**
 * The order list (admin): server-paged, filters in the URL (status, gateway, user id, trade no,
 * gateway no, date range), status badges, the paid amount, discount and fee in the order's
 * currency, quota (a plan order names its plan instead), a CSV export of the filtered orders, and a refund
 * action for paid orders (after the money went back through the gateway's own dashboard).
 */
import { useEffect, useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import type { Column, ColumnDef } from '@tanstack/react-table'
import { Download, Undo2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { DataTable, DataTableColumnHeader, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { renderQuota, timestamp2string } from '@/lib/format'
import { formatDecimal } from '@/lib/payment-amount'
import { ORDER_STATUSES, gatewaysQueryOptions, ordersExportUrl, ordersQueryOptions, useRefundOrder, type Order, type OrderSearch } from '../api'
import { GatewayIcon } from './gateway-icon'
import { OrderStatusBadge } from './order-status-badge'
import { orderFee } from './order-charges'

const route = getRouteApi('/panel/payment')
const ALL = '__all'

function TextFilter({ value, onChange, label, className }: { value: string | undefined; onChange: (v: string | undefined) => void; label: string; className?: string }) {
  const [text, setText] = useState(value ?? '')
  useEffect(() => setText(value ?? ''), [value])
  useEffect(() => {
    if (text === (value ?? '')) return
    const timer = setTimeout(() => onChange(text.trim() || undefined), 350)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return <Input value={text} onChange={(e) => setText(e.target.value)} placeholder={label} aria-label={label} className={className ?? 'h-9 w-full sm:w-44'} />
}

const toDay = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10) : '')
const fromDay = (day: string, end = false) => (day ? Math.floor(new Date(`${day}T${end ? '23:59:59' : '00:00:00'}`).getTime() / 1000) : undefined)

function time(value: number) {
  if (!value) return <span className="text-muted-foreground">—</span>
  const [date, clock] = timestamp2string(value).split(' ')
  return (
    <span className="inline-block leading-tight whitespace-nowrap">
      {date}
      <span className="block text-xs text-muted-foreground">{clock}</span>
    </span>
  )
}

export function OrdersPanel() {
  const { t } = useTranslation('payments')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const orderSearch: OrderSearch = {
    p: search.p,
    page_size: search.page_size,
    order: search.order,
    status: search.status,
    gateway_id: search.gateway_id,
    user_id: search.user_id,
    trade_no: search.trade_no,
    gateway_no: search.gateway_no,
    start_timestamp: search.start_timestamp,
    end_timestamp: search.end_timestamp,
  }
  const { data, isLoading } = useQuery(ordersQueryOptions(orderSearch))
  const gateways = useQuery(gatewaysQueryOptions).data?.data ?? []
  const refund = useRefundOrder()
  const [refunding, setRefunding] = useState<Order | undefined>()
  const setSearch = (patch: Partial<OrderSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })

  const columns = useMemo<ColumnDef<Order>[]>(() => {
    const header =
      (title: string) =>
      ({ column }: { column: Column<Order, unknown> }) => <DataTableColumnHeader column={column} title={title} />
    return [
      { id: 'id', accessorKey: 'id', header: header(t('columns.id')), meta: { title: t('columns.id'), className: 'w-14' } },
      {
        id: 'trade_no',
        accessorKey: 'trade_no',
        enableSorting: false,
        header: header(t('columns.tradeNo')),
        meta: { title: t('columns.tradeNo') },
        cell: ({ row }) => (
          <span className="grid leading-tight">
            <code className="text-xs">{row.original.trade_no}</code>
            {row.original.gateway_no && (
              <code className="text-[11px] text-muted-foreground" title={t('columns.gatewayNo')}>
                {row.original.gateway_no}
              </code>
            )}
          </span>
        ),
      },
      {
        id: 'user_id',
        accessorKey: 'user_id',
        header: header(t('columns.user')),
        meta: { title: t('columns.user') },
        cell: ({ row }) => (
          <span className="whitespace-nowrap">
            {row.original.username || '—'} <span className="text-xs text-muted-foreground">#{row.original.user_id}</span>
          </span>
        ),
      },
      {
        id: 'gateway_id',
        accessorKey: 'gateway_id',
        header: header(t('columns.gateway')),
        meta: { title: t('columns.gateway') },
        cell: ({ row }) => (
          <span className="flex items-center gap-2 whitespace-nowrap">
            <GatewayIcon type={row.original.gateway_type} className="size-5" />
            {row.original.gateway_name || `#${row.original.gateway_id}`}
          </span>
        ),
      },
      {
        id: 'amount',
        accessorKey: 'amount',
        header: header(t('columns.amount')),
        meta: { title: t('columns.amount') },
        cell: ({ row }) => (
          <span className="grid leading-tight tabular-nums">
            <span className="font-medium" data-testid="order-money">
              {formatDecimal(row.original.order_amount, row.original.order_currency)}
            </span>
            <span className="text-xs text-muted-foreground" data-testid={row.original.plan_id === null ? undefined : 'order-plan'}>
              {row.original.plan_id === null
                ? `$${row.original.amount} → ${renderQuota(row.original.quota)}`
                : t('orders.plan', { name: row.original.plan_name || `#${row.original.plan_id}` })}
            </span>
          </span>
        ),
      },
      {
        id: 'discount',
        enableSorting: false,
        header: header(t('columns.discount')),
        meta: { title: t('columns.discount') },
        cell: ({ row }) => (
          <span className="tabular-nums whitespace-nowrap" data-testid="order-discount">
            {formatDecimal(row.original.discount, row.original.order_currency)}
          </span>
        ),
      },
      {
        id: 'fee',
        enableSorting: false,
        header: header(t('columns.fee')),
        meta: { title: t('columns.fee') },
        cell: ({ row }) => (
          <span className="tabular-nums whitespace-nowrap" data-testid="order-fee">
            {orderFee(row.original)}
          </span>
        ),
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: header(t('columns.status')),
        meta: { title: t('columns.status') },
        cell: ({ row }) => (
          <span data-testid="order-status">
            <OrderStatusBadge status={row.original.status} />
          </span>
        ),
      },
      {
        id: 'created_at',
        accessorKey: 'created_at',
        header: header(t('columns.createdAt')),
        meta: { title: t('columns.createdAt') },
        cell: ({ row }) => time(row.original.created_at),
      },
      {
        id: 'paid_at',
        accessorKey: 'paid_at',
        enableSorting: false,
        header: header(t('columns.paidAt')),
        meta: { title: t('columns.paidAt') },
        cell: ({ row }) => time(row.original.paid_at),
      },
      {
        id: 'actions',
        enableHiding: false,
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) =>
          row.original.status === 'success' ? (
            <Button variant="ghost" size="sm" onClick={() => setRefunding(row.original)} data-testid="order-refund">
              <Undo2 />
              {t('actions.refund')}
            </Button>
          ) : null,
      },
    ]
  }, [t])

  const table = useServerTable({
    data: data?.data,
    columns,
    total: data?.total_count ?? 0,
    search: orderSearch,
    setSearch,
    getRowId: (row) => String(row.id),
    hiddenColumns: ['paid_at'],
  })
  const filtered = Boolean(search.status || search.gateway_id || search.user_id || search.gateway_no || search.start_timestamp || search.end_timestamp)

  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: search.trade_no, onChange: (trade_no) => setSearch({ trade_no, p: undefined }), placeholder: t('filters.tradeNo') }}
        filtered={filtered}
        onReset={() =>
          setSearch({
            trade_no: undefined,
            status: undefined,
            gateway_id: undefined,
            user_id: undefined,
            gateway_no: undefined,
            start_timestamp: undefined,
            end_timestamp: undefined,
            p: undefined,
          })
        }
      >
        <Select value={search.status ?? ALL} onValueChange={(v) => setSearch({ status: v === ALL ? undefined : (v as Order['status']), p: undefined })}>
          <SelectTrigger className="h-9 w-[calc(50%-0.25rem)] sm:w-36" aria-label={t('columns.status')} data-testid="order-status-filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t('filters.allStatuses')}</SelectItem>
            {ORDER_STATUSES.map((s) => (
              <SelectItem key={s} value={s}>
                {t(`status.${s}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={search.gateway_id ? String(search.gateway_id) : ALL} onValueChange={(v) => setSearch({ gateway_id: v === ALL ? undefined : Number(v), p: undefined })}>
          <SelectTrigger className="h-9 w-[calc(50%-0.25rem)] sm:w-40" aria-label={t('columns.gateway')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t('filters.allGateways')}</SelectItem>
            {gateways.map((g) => (
              <SelectItem key={g.id} value={String(g.id)}>
                {g.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <TextFilter
          value={search.user_id ? String(search.user_id) : undefined}
          onChange={(v) => setSearch({ user_id: v && /^\d+$/.test(v) ? Number(v) : undefined, p: undefined })}
          label={t('filters.userId')}
          className="h-9 w-[calc(50%-0.25rem)] sm:w-28"
        />
        <TextFilter
          value={search.gateway_no}
          onChange={(v) => setSearch({ gateway_no: v, p: undefined })}
          label={t('filters.gatewayNo')}
          className="h-9 w-[calc(50%-0.25rem)] sm:w-44"
        />
        <span className="flex w-full items-center gap-1 sm:w-auto">
          <Input
            type="date"
            value={toDay(search.start_timestamp)}
            onChange={(e) => setSearch({ start_timestamp: fromDay(e.target.value), p: undefined })}
            className="h-9 flex-1 sm:w-36"
            aria-label={t('filters.from')}
          />
          <span className="text-muted-foreground">–</span>
          <Input
            type="date"
            value={toDay(search.end_timestamp)}
            onChange={(e) => setSearch({ end_timestamp: fromDay(e.target.value, true), p: undefined })}
            className="h-9 flex-1 sm:w-36"
            aria-label={t('filters.to')}
          />
        </span>
        <Button variant="outline" className="h-9" asChild>
          <a href={ordersExportUrl(orderSearch)} download data-testid="orders-export">
            <Download />
            {t('actions.export')}
          </a>
        </Button>
      </DataTableToolbar>
      <DataTable table={table} loading={isLoading} empty={filtered || search.trade_no ? t('orders.emptySearch') : t('orders.empty')} />
      <DataTablePagination table={table} />
      <ConfirmDialog
        open={Boolean(refunding)}
        onOpenChange={(open) => !open && setRefunding(undefined)}
        title={t('orders.refundTitle', { trade_no: refunding?.trade_no ?? '' })}
        description={t(refunding?.plan_id ? 'orders.refundPlanDescription' : 'orders.refundDescription', {
          money: refunding ? formatDecimal(refunding.order_amount, refunding.order_currency) : '',
          quota: refunding ? renderQuota(refunding.quota) : '',
          name: refunding?.plan_name ?? '',
        })}
        confirmText={t('actions.refund')}
        destructive
        pending={refund.isPending}
        onConfirm={() => refunding && refund.mutate(refunding.id, { onSuccess: () => setRefunding(undefined) })}
      />
    </div>
  )
}
