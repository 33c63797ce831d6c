/**
 * The QR dialog of a QR gateway (WeChat Pay Native, Alipay face-to-face): the code rendered in the
 * browser (qrcode.react, nothing sent elsewhere), the amount, and a poll of the order status every
 * 3 s (one-hub's rhythm). Once paid it says so with the new balance (a plan order: that the plan
 * started) and refreshes the balance, the order history and the plan queries.
 */
import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { QRCodeSVG } from 'qrcode.react'
import { CheckCircle2, ExternalLink, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { renderQuota } from '@/lib/format'
import { selfQueryOptions } from '@/features/auth/api'
import { orderPaid, paymentKeys, type PlacedOrder } from '@/features/payments/api'
import { planKeys } from '@/features/plans/api'

/** What an order buys: balance (a top-up) or a subscription plan; it decides what "paid" says. */
export type OrderPurpose = 'topup' | 'plan'

export function usePaidPoll(tradeNo: string | undefined) {
  const [paid, setPaid] = useState(false)
  const queryClient = useQueryClient()
  useEffect(() => {
    setPaid(false)
    if (!tradeNo) return
    const controller = new AbortController()
    let stopped = false
    const tick = async () => {
      try {
        const r = await orderPaid(tradeNo, controller.signal)
        if (r.paid && !stopped) {
          stopped = true
          setPaid(true)
          await queryClient.invalidateQueries({ queryKey: selfQueryOptions.queryKey })
          await queryClient.invalidateQueries({ queryKey: paymentKeys.all })
          await queryClient.invalidateQueries({ queryKey: planKeys.all })
        }
      } catch {
        // a failed poll is retried on the next tick
      }
    }
    void tick()
    const timer = setInterval(() => !stopped && void tick(), 3000)
    return () => {
      stopped = true
      controller.abort()
      clearInterval(timer)
    }
  }, [tradeNo, queryClient])
  return paid
}

export function PayQrDialog({
  order,
  gatewayType,
  onOpenChange,
  purpose = 'topup',
}: {
  order: PlacedOrder | undefined
  gatewayType?: string
  onOpenChange: (open: boolean) => void
  purpose?: OrderPurpose
}) {
  const { t } = useTranslation('topup')
  const paid = usePaidPoll(order?.trade_no)
  const { data: self } = useQuery({ ...selfQueryOptions, enabled: paid })
  const url = order?.data.url ?? ''
  return (
    <Dialog open={Boolean(order)} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-sm" data-testid="pay-qr-dialog">
        <DialogHeader>
          <DialogTitle>{paid ? t('qr.paidTitle') : t(gatewayType === 'alipay' ? 'qr.titleAlipay' : 'qr.titleWechat')}</DialogTitle>
          <DialogDescription>{paid ? t(purpose === 'plan' ? 'qr.planPaidDescription' : 'qr.paidDescription') : t('qr.description')}</DialogDescription>
        </DialogHeader>
        {paid ? (
          <div className="grid justify-items-center gap-3 py-4 text-center" data-testid="pay-success">
            <CheckCircle2 className="size-14 text-success" />
            {purpose === 'topup' && (
              <>
                <p className="text-sm text-muted-foreground">{t('qr.balance')}</p>
                <p className="text-2xl font-semibold tabular-nums" data-testid="pay-new-balance">
                  {self ? renderQuota(self.quota) : '…'}
                </p>
              </>
            )}
          </div>
        ) : (
          <div className="grid justify-items-center gap-3 py-2">
            <div className="rounded-lg bg-white p-3">
              <QRCodeSVG value={url} size={208} marginSize={0} data-testid="pay-qr" data-url={url} />
            </div>
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="size-4 animate-spin" />
              {t('qr.waiting')}
            </p>
            <code className="text-xs text-muted-foreground">{order?.trade_no}</code>
            {url.startsWith('https://') && (
              <Button variant="link" size="sm" asChild>
                <a href={url} target="_blank" rel="noopener noreferrer">
                  {t('qr.open')}
                  <ExternalLink />
                </a>
              </Button>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant={paid ? 'default' : 'outline'} onClick={() => onOpenChange(false)} data-testid="pay-qr-close">
            {paid ? t('qr.done') : t('qr.cancel')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
