/** The user's own orders (GET /api/user/order: top-ups and plan orders, which name their plan), five per page, with status badges, discount and fee, and a CSV export. */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Download, ReceiptText } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { renderQuota, timestamp2string } from '@/lib/format'
import { formatDecimal } from '@/lib/payment-amount'
import { myOrdersQueryOptions, ordersExportUrl } from '@/features/payments/api'
import { GatewayIcon } from '@/features/payments/components/gateway-icon'
import { OrderCharges } from '@/features/payments/components/order-charges'
import { OrderStatusBadge } from '@/features/payments/components/order-status-badge'

export function OrderHistoryCard() {
  const { t } = useTranslation('topup')
  const [p, setP] = useState(1)
  const { data } = useQuery(myOrdersQueryOptions(p))
  const pages = Math.max(1, Math.ceil((data?.total_count ?? 0) / 5))
  if (data && data.total_count === 0) return null
  return (
    <Card data-testid="order-history">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ReceiptText className="size-5 text-primary" />
          {t('history.title')}
        </CardTitle>
        <CardDescription>{t('history.description')}</CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" asChild>
            <a href={ordersExportUrl()} download data-testid="history-export">
              <Download />
              {t('history.export')}
            </a>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-2">
        {(data?.data ?? []).map((o) => (
          <div key={o.trade_no} className="flex items-center gap-3 rounded-lg border p-3 text-sm" data-testid="history-row">
            <GatewayIcon type={o.gateway_type} className="size-7" />
            <div className="grid min-w-0 flex-1 leading-tight">
              <span className="font-medium tabular-nums">
                {formatDecimal(o.order_amount, o.order_currency)}{' '}
                <span className="text-muted-foreground">→ {o.plan_id === null ? renderQuota(o.quota) : t('history.plan', { name: o.plan_name || `#${o.plan_id}` })}</span>
              </span>
              <OrderCharges order={o} className="text-xs text-muted-foreground tabular-nums" />
              <span className="truncate text-xs text-muted-foreground">
                {timestamp2string(o.created_at)} · {o.trade_no}
              </span>
            </div>
            <OrderStatusBadge status={o.status} />
          </div>
        ))}
        {pages > 1 && (
          <div className="flex items-center justify-end gap-2 text-sm text-muted-foreground">
            <Button variant="outline" size="icon" className="size-8" disabled={p <= 1} onClick={() => setP(p - 1)} aria-label={t('history.previous')}>
              <ChevronLeft />
            </Button>
            {p} / {pages}
            <Button variant="outline" size="icon" className="size-8" disabled={p >= pages} onClick={() => setP(p + 1)} aria-label={t('history.next')}>
              <ChevronRight />
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
