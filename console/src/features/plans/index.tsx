/**
 * /panel/plans (every user): the published plans as cards (price, duration, windows, model items)
 * and "My subscriptions" with each window's use. Plans are granted by an administrator; buying one
 * through a payment gateway is not offered here.
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Skeleton } from '@/components/ui/skeleton'
import { availablePlansQueryOptions, mySubscriptionsQueryOptions } from './api'
import { PlanCard } from './components/plan-card'
import { SubscriptionCard } from './components/subscription-card'

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
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <section className="grid gap-4" aria-labelledby="plans-available">
        <h2 id="plans-available" className="text-lg font-semibold">
          {t('available')}
        </h2>
        {plans.isLoading ? (
          <Loading />
        ) : plans.data?.length ? (
          <div className="grid items-start gap-6 md:grid-cols-2 xl:grid-cols-3" data-testid="plan-cards">
            {plans.data.map((plan) => (
              <PlanCard key={plan.id} plan={plan} />
            ))}
          </div>
        ) : (
          <p className="rounded-md border p-8 text-center text-muted-foreground">{t('noPlans')}</p>
        )}
        <p className="text-sm text-muted-foreground">{t('howToGet')}</p>
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
              <SubscriptionCard key={sub.id} sub={sub} />
            ))}
          </div>
        ) : (
          <p className="rounded-md border p-8 text-center text-muted-foreground">{t('noSubscriptions')}</p>
        )}
      </section>
    </>
  )
}
