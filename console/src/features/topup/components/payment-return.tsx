/**
 * Back from a gateway's page (`/panel/topup?trade_no=…`, or `/panel/plans?trade_no=…` for a plan
 * order): the return URL proves nothing, so the banner polls the order status and says "paid" only
 * when the server has credited it (or started the plan).
 */
import { useEffect, useState } from 'react'
import { CheckCircle2, Clock, Loader2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { notify } from '@/lib/notify'
import { type OrderPurpose, usePaidPoll } from './pay-qr-dialog'

export function PaymentReturn({ tradeNo, onDismiss, purpose = 'topup' }: { tradeNo: string; onDismiss: () => void; purpose?: OrderPurpose }) {
  const { t } = useTranslation('topup')
  const paid = usePaidPoll(tradeNo)
  // Cancelled at the gateway, or its notify is late: after a minute, say so (the poll goes on).
  const [late, setLate] = useState(false)
  useEffect(() => {
    setLate(false)
    const timer = setTimeout(() => setLate(true), 60_000)
    return () => clearTimeout(timer)
  }, [tradeNo])
  useEffect(() => {
    if (paid) notify.success(t(purpose === 'plan' ? 'return.plan.paidToast' : 'return.paidToast'))
  }, [paid, t, purpose])
  const state = paid ? 'paid' : late ? 'late' : 'checking'
  const description = purpose === 'plan' && state !== 'checking' ? `return.plan.${state}Description` : `return.${state}Description`
  return (
    <Alert className="relative" data-testid="payment-return">
      {paid ? <CheckCircle2 className="text-success" /> : late ? <Clock /> : <Loader2 className="animate-spin" />}
      <AlertTitle data-testid="payment-return-title">{t(`return.${state}`)}</AlertTitle>
      <AlertDescription>
        <span>{t(description)}</span>
        <code className="text-xs">{tradeNo}</code>
      </AlertDescription>
      <Button variant="ghost" size="icon" className="absolute top-2 right-2 size-7" onClick={onDismiss} aria-label={t('return.dismiss')}>
        <X />
      </Button>
    </Alert>
  )
}
