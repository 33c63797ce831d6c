/**
 * Online top-up: the amount (a whole number of dollars, at least the site minimum,
 * at most 1,000,000) with quick amounts from the discount map and their discount badges, the
 * gateway choice, and the price preview — list price, discount, fee and what the gateway will
 * charge in its currency — computed by the server's own formula (lib/payment-amount.ts). Paying
 * opens the gateway's page, or the QR dialog for QR gateways (WeChat Pay, Alipay face-to-face).
 */
import { useMemo, useState } from 'react'
import { CreditCard, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Separator } from '@/components/ui/separator'
import { handleError } from '@/lib/handle-error'
import { quotaPerUnit, renderQuota } from '@/lib/format'
import { MAX_TOPUP_AMOUNT, amountProblem, computeOrderAmount, formatMoney, parseDiscounts, type PaymentCurrency } from '@/lib/payment-amount'
import { cn } from '@/lib/utils'
import { useSiteInfo } from '@/features/site/api'
import { usePlaceOrder, type PlacedOrder, type UserGateway } from '@/features/payments/api'
import { GatewayChoice } from './gateway-choice'
import { PayQrDialog } from './pay-qr-dialog'

const QUICK = [10, 20, 50, 100, 200, 500]

/** Opens the gateway's cashier page. Always a GET navigation: the console's CSP allows no cross-origin form posts, and every gateway's page accepts GET (Epay's submit.php included). */
export function openCashier(order: PlacedOrder) {
  const { url, params } = order.data
  const query = params && Object.keys(params).length ? new URLSearchParams(params).toString() : ''
  window.location.assign(query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url)
}

export function OnlineTopupCard({ gateways }: { gateways: UserGateway[] }) {
  const { t } = useTranslation('topup')
  const site = useSiteInfo()
  const min = Math.max(1, site.payment_min_amount ?? 1)
  const discounts = useMemo(() => parseDiscounts(site.recharge_discount), [site.recharge_discount])
  const quick = useMemo(() => {
    const fromMap = Object.keys(discounts)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= min && n <= MAX_TOPUP_AMOUNT)
    return [...new Set([...(fromMap.length ? fromMap : QUICK.filter((n) => n >= min))])].sort((a, b) => a - b).slice(0, 8)
  }, [discounts, min])
  const [text, setText] = useState(String(quick[0] ?? min))
  const [selected, setSelected] = useState(gateways[0]?.uuid ?? '')
  const [qr, setQr] = useState<PlacedOrder | undefined>()
  const place = usePlaceOrder()
  const gateway = gateways.find((g) => g.uuid === selected) ?? gateways[0]
  const amount = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN
  const problem = amountProblem(amount, min)
  const price =
    gateway && !problem
      ? computeOrderAmount({
          amount,
          discounts,
          percentFee: gateway.percent_fee,
          fixedFeeCents: Math.round(gateway.fixed_fee * 100),
          currency: gateway.currency as PaymentCurrency,
          usdRate: site.payment_usd_rate ?? 7.3,
          quotaPerUnit: site.quota_per_unit || quotaPerUnit(),
        })
      : undefined
  const error =
    text.trim() === ''
      ? undefined
      : problem === 'below_minimum'
        ? t('online.min', { min })
        : problem === 'above_maximum'
          ? t('online.max')
          : problem
            ? t('online.integer')
            : undefined

  const pay = () => {
    if (!gateway || problem) return
    place.mutate(
      { uuid: gateway.uuid, amount },
      {
        onSuccess: (order) => (order.type === 'qr' ? setQr(order) : openCashier(order)),
        onError: handleError,
      }
    )
  }

  const badge = (n: number) => {
    const d = discounts[String(n)]
    return d && d < 1 ? t('online.off', { percent: +((1 - d) * 100).toFixed(1) }) : undefined
  }

  return (
    <Card data-testid="online-topup">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CreditCard className="size-5 text-primary" />
          {t('online.title')}
        </CardTitle>
        <CardDescription>{t('online.description', { min })}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2">
          <Label htmlFor="topup-amount">{t('online.amount')}</Label>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
            {quick.map((n) => (
              <button
                key={n}
                type="button"
                onClick={() => setText(String(n))}
                className={cn(
                  'relative rounded-lg border px-2 py-2 text-sm font-medium tabular-nums transition-colors hover:bg-accent',
                  amount === n && 'border-primary bg-primary/5 ring-1 ring-primary'
                )}
                data-testid={`quick-${n}`}
              >
                ${n}
                {badge(n) && <Badge className="absolute -top-2 -right-1 h-4 px-1 text-[10px]">{badge(n)}</Badge>}
              </button>
            ))}
          </div>
          <div className="relative">
            <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground">$</span>
            <Input
              id="topup-amount"
              inputMode="numeric"
              value={text}
              onChange={(e) => setText(e.target.value.replace(/[^\d]/g, ''))}
              className="pl-7 tabular-nums"
              aria-invalid={Boolean(error)}
              data-testid="topup-amount"
            />
          </div>
          {error && (
            <p className="text-sm text-destructive" data-testid="topup-amount-error">
              {error}
            </p>
          )}
        </div>

        <GatewayChoice gateways={gateways} selected={gateway?.uuid} onSelect={setSelected} />

        {price && gateway && (
          <dl className="grid gap-1.5 rounded-lg border bg-muted/40 p-4 text-sm" data-testid="topup-preview">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">{t('online.subtotal')}</dt>
              <dd className="tabular-nums">{formatMoney(amount * 100, 'USD')}</dd>
            </div>
            {price.discountedCents !== amount * 100 && (
              <div className="flex justify-between text-success">
                <dt>{t('online.discount', { percent: +((1 - price.multiplier) * 100).toFixed(1) })}</dt>
                <dd className="tabular-nums">−{formatMoney(amount * 100 - price.discountedCents, 'USD')}</dd>
              </div>
            )}
            {price.feeCents > 0 && (
              <div className="flex justify-between">
                <dt className="text-muted-foreground">{t('online.fee')}</dt>
                <dd className="tabular-nums">+{formatMoney(price.feeCents, 'USD')}</dd>
              </div>
            )}
            {price.currency !== 'USD' && (
              <div className="flex justify-between text-xs text-muted-foreground">
                <dt>{t('online.rate')}</dt>
                <dd className="tabular-nums">$1 = ¥{site.payment_usd_rate ?? 7.3}</dd>
              </div>
            )}
            <Separator className="my-1" />
            <div className="flex items-baseline justify-between">
              <dt className="font-medium">{t('online.total')}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="topup-total">
                {formatMoney(price.payCents, price.currency)}
              </dd>
            </div>
            <div className="flex justify-between text-xs text-muted-foreground">
              <dt>{t('online.receive')}</dt>
              <dd className="tabular-nums">{renderQuota(price.quota)}</dd>
            </div>
          </dl>
        )}
      </CardContent>
      <CardFooter>
        <Button className="w-full" size="lg" disabled={!price || place.isPending} onClick={pay} data-testid="topup-pay">
          {place.isPending && <Loader2 className="animate-spin" />}
          {price ? t('online.pay', { total: formatMoney(price.payCents, price.currency) }) : t('online.payDisabled')}
        </Button>
      </CardFooter>
      <PayQrDialog order={qr} gatewayType={gateway?.type} onOpenChange={(open) => !open && setQr(undefined)} />
    </Card>
  )
}
