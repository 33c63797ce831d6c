/**
 * An administrator's view of one user's subscriptions (opened from the users page): each with its
 * windows' use, revoke and extend while it is active, and a button to grant the user a plan.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Gift, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { SUBSCRIPTION_STATUS } from '@contract/enums'
import { userSubscriptionsQueryOptions } from '../api'
import { GrantDialog } from './grant-dialog'
import { SubscriptionActions } from './subscription-actions'
import { SubscriptionCard } from './subscription-card'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  user: { id: number; username: string }
}

export function UserSubscriptionsDialog({ open, onOpenChange, user }: Props) {
  const { t } = useTranslation('plans')
  const subs = useQuery({ ...userSubscriptionsQueryOptions(user.id), enabled: open })
  const [granting, setGranting] = useState(0)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="user-subscriptions-dialog" className="max-h-[92vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('userSubscriptions.title', { name: user.username })}</DialogTitle>
          <DialogDescription>{t('userSubscriptions.description')}</DialogDescription>
        </DialogHeader>
        <Button variant="outline" className="w-fit" onClick={() => setGranting((n) => n + 1)} data-testid="user-subscriptions-grant">
          <Gift />
          {t('actions.grant')}
        </Button>
        {subs.isLoading ? (
          <Loader2 className="mx-auto my-8 animate-spin text-muted-foreground" />
        ) : subs.data?.length ? (
          <div className="grid gap-4">
            {subs.data.map((sub) => (
              <SubscriptionCard key={sub.id} sub={sub} actions={sub.status === SUBSCRIPTION_STATUS.ACTIVE ? <SubscriptionActions sub={sub} /> : undefined} />
            ))}
          </div>
        ) : (
          <p className="rounded-md border p-8 text-center text-muted-foreground">{t('userSubscriptions.empty')}</p>
        )}
        {granting > 0 && <GrantDialog key={granting} open onOpenChange={(o) => !o && setGranting(0)} userId={user.id} />}
      </DialogContent>
    </Dialog>
  )
}
