/**
 * Buying a plan: the enabled payment gateways (the top-up page's list), what the chosen one charges
 * for the plan's price (its fee and currency by the server's own priceOrder, no discount), then the
 * order continues exactly like a top-up — the gateway's page, or the QR dialog that waits for the
 * payment. The subscription starts only when the server has the gateway's verified notify.
 * "Renew automatically" (not offered for plans that never expire) makes a Stripe order a recurring
 * charge, and on other payment methods asks for a renewal order before each expiry; Stripe cannot
 * recur hourly, so the box is disabled there for plans of hours.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { handleError } from '@/lib/handle-error'
import { formatMoney, priceOrder, type PaymentCurrency } from '@/lib/payment-amount'
import { useSiteInfo } from '@/features/site/api'
import { userGatewaysQueryOptions, type PlacedOrder } from '@/features/payments/api'
import { GatewayChoice } from '@/features/topup/components/gateway-choice'
import { openCashier } from '@/features/topup/components/online-topup-card'
import { PayQrDialog } from '@/features/topup/components/pay-qr-dialog'
import { useSubscribePlan, type Plan } from '../api'
import { formatDuration } from '../format'

export function SubscribeDialog({ plan, onOpenChange }: { plan: Plan | undefined; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('plans')
  const site = useSiteInfo()
  const gateways = useQuery({ ...userGatewaysQueryOptions, enabled: Boolean(plan) })
  const [selected, setSelected] = useState<string | undefined>()
  const [qr, setQr] = useState<PlacedOrder | undefined>()
  const [qrGateway, setQrGateway] = useState<string | undefined>()
  const [autoRenew, setAutoRenew] = useState(false)
  const subscribe = useSubscribePlan()
  const list = gateways.data ?? []
  const gateway = list.find((g) => g.uuid === selected) ?? list[0]
  const price =
    plan && gateway
      ? priceOrder({
          baseCents: Math.round(plan.price * 100),
          multiplier: 1,
          percentFee: gateway.percent_fee,
          fixedFeeCents: Math.round(gateway.fixed_fee * 100),
          currency: gateway.currency as PaymentCurrency,
          usdRate: site.payment_usd_rate ?? 7.3,
        })
      : undefined
  const renewable = plan !== undefined && plan.duration_unit !== 'unlimited'
  const recurring = gateway?.type === 'stripe'
  const renewBlocked = recurring && plan?.duration_unit === 'hour'
  const renew = renewable && !renewBlocked && autoRenew

  const pay = () => {
    if (!plan || !gateway) return
    subscribe.mutate(
      { plan_id: plan.id, uuid: gateway.uuid, auto_renew: renew },
      {
        onSuccess: (order) => {
          if (order.type !== 'qr') return openCashier(order)
          setQrGateway(gateway.type)
          setQr(order)
          onOpenChange(false)
        },
        onError: handleError,
      }
    )
  }

  return (
    <>
      <Dialog open={Boolean(plan)} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-lg" data-testid="subscribe-dialog">
          <DialogHeader>
            <DialogTitle>{t('subscribe.title', { name: plan?.name ?? '' })}</DialogTitle>
            <DialogDescription>{plan ? t('subscribe.description', { duration: formatDuration(t, plan.duration_unit, plan.duration_count) }) : ''}</DialogDescription>
          </DialogHeader>
          {gateways.isLoading ? (
            <Skeleton className="h-24" />
          ) : list.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="subscribe-no-gateways">
              {t('subscribe.noGateways')}
            </p>
          ) : (
            <div className="grid gap-4">
              <GatewayChoice gateways={list} selected={gateway?.uuid} onSelect={setSelected} />
              {plan && price && (
                <dl className="grid gap-1.5 rounded-lg border bg-muted/40 p-4 text-sm" data-testid="subscribe-preview">
                  <div className="flex justify-between">
                    <dt className="text-muted-foreground">{t('subscribe.price')}</dt>
                    <dd className="tabular-nums">{formatMoney(Math.round(plan.price * 100), 'USD')}</dd>
                  </div>
                  {price.feeCents > 0 && (
                    <div className="flex justify-between">
                      <dt className="text-muted-foreground">{t('subscribe.fee')}</dt>
                      <dd className="tabular-nums">+{formatMoney(price.feeCents, 'USD')}</dd>
                    </div>
                  )}
                  <div className="flex items-baseline justify-between border-t pt-1.5">
                    <dt className="font-medium">{t('subscribe.total')}</dt>
                    <dd className="text-lg font-semibold tabular-nums" data-testid="subscribe-total">
                      {formatMoney(price.payCents, price.currency)}
                    </dd>
                  </div>
                </dl>
              )}
              {plan && renewable && (
                <div className="flex items-start gap-2">
                  <Checkbox
                    id="subscribe-auto-renew"
                    checked={renew}
                    disabled={renewBlocked}
                    onCheckedChange={(c) => setAutoRenew(c === true)}
                    data-testid="subscribe-auto-renew"
                  />
                  <div className="grid gap-1">
                    <Label htmlFor="subscribe-auto-renew">{t('subscribe.autoRenew')}</Label>
                    <p className="text-xs text-muted-foreground">
                      {renewBlocked
                        ? t('subscribe.autoRenewHourly')
                        : recurring
                          ? t('subscribe.autoRenewRecurring', { duration: formatDuration(t, plan.duration_unit, plan.duration_count) })
                          : t('subscribe.autoRenewOrders')}
                    </p>
                  </div>
                </div>
              )}
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('actions.cancel')}
            </Button>
            <Button disabled={!price || subscribe.isPending} onClick={pay} data-testid="subscribe-pay">
              {subscribe.isPending && <Loader2 className="animate-spin" />}
              {price ? t('subscribe.pay', { total: formatMoney(price.payCents, price.currency) }) : t('subscribe.payDisabled')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <PayQrDialog order={qr} gatewayType={qrGateway} purpose="plan" onOpenChange={(open) => !open && setQr(undefined)} />
    </>
  )
}
