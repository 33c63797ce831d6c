/**
 * /panel/topup (every user): the balance, online top-up through the enabled payment
 * gateways (only when one exists) with the user's order history, redemption-code top-up with the
 * link to buy codes, and the invite card. Back from a gateway (`?trade_no=`), a banner follows the
 * order until the server has credited it.
 */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { PageHeader } from '@/components/page-header'
import { selfQueryOptions } from '@/features/auth/api'
import { userGatewaysQueryOptions } from '@/features/payments/api'
import { BalanceCard } from './components/balance-card'
import { InviteCard } from './components/invite-card'
import { OnlineTopupCard } from './components/online-topup-card'
import { OrderHistoryCard } from './components/order-history-card'
import { PaymentReturn } from './components/payment-return'
import { RedeemCard } from './components/redeem-card'

const route = getRouteApi('/panel/topup')

export function TopUp() {
  const { t } = useTranslation('topup')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  // The console layout keeps the stored user in step with this query.
  const { data: user } = useQuery(selfQueryOptions)
  const gateways = useQuery(userGatewaysQueryOptions)
  const online = gateways.data ?? []
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {search.trade_no && (
        <div className="mb-6">
          <PaymentReturn tradeNo={search.trade_no} onDismiss={() => void navigate({ search: {} })} />
        </div>
      )}
      {user && !gateways.isLoading ? (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="grid gap-6">
            <BalanceCard user={user} />
            {online.length > 0 && <OnlineTopupCard gateways={online} />}
            {online.length === 0 && <RedeemCard />}
          </div>
          <div className="grid gap-6">
            {online.length > 0 && <RedeemCard hasGateways />}
            {online.length > 0 && <OrderHistoryCard />}
            <InviteCard user={user} />
          </div>
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
