/**
 * The auto-renew switch on one of the user's own subscriptions (PUT /api/user/subscription/:id):
 * off cancels a Stripe-backed subscription at the end of its paid period, on lets it renew again
 * (Stripe, or a renewal order before expiry on other payment methods). The server's refusal (a
 * Stripe Subscription that was deleted, a granted plan) shows as the error toast.
 */
import { useTranslation } from 'react-i18next'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { handleError } from '@/lib/handle-error'
import { useSetAutoRenew, type SubscriptionView } from '../api'

export function AutoRenewSwitch({ sub }: { sub: SubscriptionView }) {
  const { t } = useTranslation('plans')
  const set = useSetAutoRenew()
  const id = `auto-renew-${sub.id}`
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={sub.auto_renew}
        disabled={set.isPending}
        onCheckedChange={(on) => set.mutate({ id: sub.id, auto_renew: on }, { onError: handleError })}
        data-testid={`subscription-auto-renew-${sub.id}`}
      />
      <Label htmlFor={id} className="text-sm font-normal">
        {t('subscription.autoRenew')}
      </Label>
    </div>
  )
}
