/**
 * Back from a gateway's page (`/panel/topup?trade_no=…`): the return URL proves nothing, so the
 * banner polls the order status and says "paid" only when the server has credited it.
 */
import { useEffect } from 'react'
import { CheckCircle2, Loader2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { notify } from '@/lib/notify'
import { usePaidPoll } from './pay-qr-dialog'

export function PaymentReturn({ tradeNo, onDismiss }: { tradeNo: string; onDismiss: () => void }) {
  const { t } = useTranslation('topup')
  const paid = usePaidPoll(tradeNo)
  useEffect(() => {
    if (paid) notify.success(t('return.paidToast'))
  }, [paid, t])
  return (
    <Alert className="relative" data-testid="payment-return">
      {paid ? <CheckCircle2 className="text-success" /> : <Loader2 className="animate-spin" />}
      <AlertTitle data-testid="payment-return-title">{paid ? t('return.paid') : t('return.checking')}</AlertTitle>
      <AlertDescription>
        <span>{paid ? t('return.paidDescription') : t('return.checkingDescription')}</span>
        <code className="text-xs">{tradeNo}</code>
      </AlertDescription>
      <Button variant="ghost" size="icon" className="absolute top-2 right-2 size-7" onClick={onDismiss} aria-label={t('return.dismiss')}>
        <X />
      </Button>
    </Alert>
  )
}
