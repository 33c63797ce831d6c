/**
 * "Renewal due" on one of the user's own auto-renewing subscriptions: the renewal order the server
 * placed before its expiry (amount and payment method) and a Pay button (POST
 * /api/user/subscription/:id/renew) that continues like any order — the gateway's page, or the QR
 * dialog that waits for the payment. The subscription is extended once the gateway's verified
 * notify arrives.
 */
import { useState } from 'react'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { handleError } from '@/lib/handle-error'
import { formatMoney } from '@/lib/payment-amount'
import type { PlacedOrder } from '@/features/payments/api'
import { openCashier } from '@/features/topup/components/online-topup-card'
import { PayQrDialog } from '@/features/topup/components/pay-qr-dialog'
import { usePayRenewal, type SubscriptionView } from '../api'

export function RenewalDue({ sub }: { sub: SubscriptionView }) {
  const { t } = useTranslation('plans')
  const pay = usePayRenewal()
  // The QR dialog outlives the notice: once paid, the renewal is no longer due.
  const [qr, setQr] = useState<{ order: PlacedOrder; gatewayType: string } | undefined>()
  const due = sub.renewal_due
  const start = (gatewayType: string) =>
    pay.mutate(sub.id, {
      onSuccess: (order) => (order.type === 'qr' ? setQr({ order, gatewayType }) : openCashier(order)),
      onError: handleError,
    })
  return (
    <>
      {due && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-testid="renewal-due">
          <span className="min-w-0 break-words">{t('renewal.due', { total: formatMoney(due.amount_cents, due.currency), gateway: due.gateway })}</span>
          <Button size="sm" disabled={pay.isPending} onClick={() => start(due.gateway_type)} data-testid="renewal-pay">
            {pay.isPending && <Loader2 className="animate-spin" />}
            {t('renewal.pay')}
          </Button>
        </div>
      )}
      <PayQrDialog order={qr?.order} gatewayType={qr?.gatewayType} purpose="plan" onOpenChange={(open) => !open && setQr(undefined)} />
    </>
  )
}
