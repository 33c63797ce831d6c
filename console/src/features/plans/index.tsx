/**
 * /panel/plans (every user): the published plans as cards (price, duration, windows, model items)
 * and "My subscriptions" with each window's use. A priced plan can be bought through the enabled
 * payment gateways (the subscribe dialog); without gateways plans are only granted. Back from a
 * gateway (`?trade_no=`), the top-up page's banner follows the order until the plan has started.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Skeleton } from '@/components/ui/skeleton'
import { userGatewaysQueryOptions } from '@/features/payments/api'
import { PaymentReturn } from '@/features/topup/components/payment-return'
import { SUBSCRIPTION_STATUS } from '@contract/enums'
import { availablePlansQueryOptions, mySubscriptionsQueryOptions, type Plan, type SubscriptionView } from './api'
import { PlanCard } from './components/plan-card'
import { SubscribeDialog } from './components/subscribe-dialog'
import { SubscriptionCard } from './components/subscription-card'
import { AutoRenewSwitch } from './components/auto-renew-switch'
import { RenewalDue } from './components/renewal-due'

const route = getRouteApi('/panel/plans')

/** Auto-renew can be switched on an active, expiring subscription that was bought (a grant has no payment method to renew through). */
const renewable = (sub: SubscriptionView) => sub.status === SUBSCRIPTION_STATUS.ACTIVE && sub.expires_at > 0 && (sub.source === 'order' || sub.auto_renew)

/** Whether the user holds the plan's per-user limit (active and expired subscriptions count, as on the server). */
function atLimit(plan: Plan, mine: SubscriptionView[] | undefined) {
  if (plan.max_per_user <= 0 || !mine) return false
  const held = mine.filter((s) => s.plan_id === plan.id && (s.status === SUBSCRIPTION_STATUS.ACTIVE || s.status === SUBSCRIPTION_STATUS.EXPIRED)).length
  return held >= plan.max_per_user
}

function Loading() {
  return (
    <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
      <Skeleton className="h-64" />
      <Skeleton className="h-64" />
    </div>
  )
}

export function Plans() {
  const { t } = useTranslation('plans')
  const plans = useQuery(availablePlansQueryOptions)
  const mine = useQuery(mySubscriptionsQueryOptions)
  const gateways = useQuery(userGatewaysQueryOptions)
  const canBuy = (gateways.data?.length ?? 0) > 0
  const [buying, setBuying] = useState<Plan | undefined>()
  const search = route.useSearch()
  const navigate = route.useNavigate()
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {search.trade_no && (
        <div className="mb-6">
          <PaymentReturn tradeNo={search.trade_no} purpose="plan" onDismiss={() => void navigate({ search: {} })} />
        </div>
      )}
      <section className="grid gap-4" aria-labelledby="plans-available">
        <h2 id="plans-available" className="text-lg font-semibold">
          {t('available')}
        </h2>
        {plans.isLoading ? (
          <Loading />
        ) : plans.data?.length ? (
          <div className="grid items-start gap-6 md:grid-cols-2 xl:grid-cols-3" data-testid="plan-cards">
            {plans.data.map((plan) => (
              <PlanCard key={plan.id} plan={plan} onSubscribe={canBuy ? setBuying : undefined} atLimit={atLimit(plan, mine.data)} />
            ))}
          </div>
        ) : (
          <p className="rounded-md border p-8 text-center text-muted-foreground">{t('noPlans')}</p>
        )}
        {!canBuy && !gateways.isLoading && <p className="text-sm text-muted-foreground">{t('howToGet')}</p>}
      </section>
      <section className="mt-10 grid gap-4" aria-labelledby="plans-mine">
        <h2 id="plans-mine" className="text-lg font-semibold">
          {t('mine')}
        </h2>
        {mine.isLoading ? (
          <Loading />
        ) : mine.data?.length ? (
          <div className="grid items-start gap-6 md:grid-cols-2 xl:grid-cols-3" data-testid="my-subscriptions">
            {mine.data.map((sub) => (
              <SubscriptionCard key={sub.id} sub={sub} actions={renewable(sub) ? <AutoRenewSwitch sub={sub} /> : undefined} notice={<RenewalDue sub={sub} />} />
            ))}
          </div>
        ) : (
          <p className="rounded-md border p-8 text-center text-muted-foreground">{t('noSubscriptions')}</p>
        )}
      </section>
      <SubscribeDialog plan={buying} onOpenChange={(open) => !open && setBuying(undefined)} />
    </>
  )
}
