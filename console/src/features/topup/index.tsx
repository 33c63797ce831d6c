/**
 * /panel/topup (every user; spec §2 Top-up): the balance, redemption-code top-up with the link to
 * buy codes, and the invite card. Online payment appears only once a payment gateway exists
 * (payments are not built, so that section is not rendered).
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { PageHeader } from '@/components/page-header'
import { selfQueryOptions } from '@/features/auth/api'
import { BalanceCard } from './components/balance-card'
import { InviteCard } from './components/invite-card'
import { RedeemCard } from './components/redeem-card'

export function TopUp() {
  const { t } = useTranslation('topup')
  // The console layout keeps the stored user in step with this query.
  const { data: user } = useQuery(selfQueryOptions)
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {user ? (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="grid gap-6">
            <BalanceCard user={user} />
            <RedeemCard />
          </div>
          <InviteCard user={user} />
        </div>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <Skeleton className="h-72" />
          <Skeleton className="h-72" />
        </div>
      )}
    </>
  )
}
