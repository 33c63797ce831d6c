/**
 * /panel/analytics: site totals (users, balances, spending,
 * invited users, channels by status, redemption codes) and, for the chosen period, consumption,
 * tokens, requests, registrations direct vs invited, redemption usage, top users and top models.
 */
import { useMemo, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PageHeader } from '@/components/page-header'
import { renderNumber } from '@/lib/format'
import { cn } from '@/lib/utils'
import { DateRangePicker } from '@/features/dashboard/components/date-range-picker'
import { ChartCard } from '@/features/dashboard/components/stat-card'
import { renderQuotaFine } from '@/features/dashboard/format'
import { rangeDays, resolveRange } from '@/features/dashboard/range'
import { periodQueryOptions, statisticsQueryOptions } from './api'
import { AnalyticsOverview } from './components/analytics-overview'
import { SavedQuotaBadge } from '@/features/dashboard/components/saved-quota'
import { ConsumptionTrend, RedemptionsTrend, RegistrationsTrend, RequestsTrend, TokensTrend } from './components/analytics-charts'
import { TopModelsTable, TopUsersTable } from './components/top-tables'
import { shapePeriod } from './data'

const route = getRouteApi('/panel/analytics')

export function Analytics() {
  const { t } = useTranslation('analytics')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const range = useMemo(() => resolveRange(search), [search])
  const days = useMemo(() => rangeDays(range), [range])
  const { data: stats } = useQuery(statisticsQueryOptions)
  const { data: period, isPending, isPlaceholderData } = useQuery(periodQueryOptions(range))
  const shaped = useMemo(() => shapePeriod(period, days), [period, days])
  const { totals } = shaped
  const noUsage = !isPending && totals.requests === 0 ? t('emptyPeriod') : false

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<DateRangePicker range={range} onChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }) })} />}
      />
      <div className="grid gap-4 md:gap-6">
        <AnalyticsOverview stats={stats} />

        <div className={cn('grid gap-4 transition-opacity md:gap-6 lg:grid-cols-2', isPlaceholderData && 'opacity-60')} aria-busy={isPlaceholderData}>
          <ChartCard
            title={t('charts.consumption')}
            description={t('charts.consumptionHint', { total: renderQuotaFine(totals.quota) })}
            action={period && <SavedQuotaBadge label={t('charts.saved', { quota: renderQuotaFine(totals.saved) })} testId="site-saved-quota" />}
            loading={isPending}
            empty={noUsage}
            testId="card-consumption"
          >
            <ConsumptionTrend data={shaped.daily} />
          </ChartCard>
          <ChartCard title={t('charts.tokens')} description={t('charts.tokensHint', { total: renderNumber(totals.tokens) })} loading={isPending} empty={noUsage}>
            <TokensTrend data={shaped.daily} />
          </ChartCard>
          <ChartCard title={t('charts.requests')} description={t('charts.requestsHint', { total: totals.requests.toLocaleString() })} loading={isPending} empty={noUsage}>
            <RequestsTrend data={shaped.daily} />
          </ChartCard>
          <ChartCard
            title={t('charts.registrations')}
            description={t('charts.registrationsHint', { direct: totals.direct, invited: totals.invited })}
            loading={isPending}
            empty={totals.direct + totals.invited === 0 && !isPending ? t('charts.noRegistrations') : false}
            testId="card-registrations"
          >
            <RegistrationsTrend data={shaped.registrations} />
          </ChartCard>
          <ChartCard
            className="lg:col-span-2"
            title={t('charts.redemptions')}
            description={t('charts.redemptionsHint', { count: totals.redeemedCount, quota: renderQuotaFine(totals.redeemedQuota) })}
            loading={isPending}
            empty={totals.redeemedCount === 0 && !isPending ? t('charts.noRedemptions') : false}
            bodyHeight="h-48"
            testId="card-redemptions"
          >
            <RedemptionsTrend data={shaped.redemptions} />
          </ChartCard>
          <TableCard title={t('topUsers.title')} description={t('topUsers.description')} testId="top-users">
            <TopUsersTable users={period?.top_users} loading={isPending} />
          </TableCard>
          <TableCard title={t('topModels.title')} description={t('topModels.description')} testId="top-models">
            <TopModelsTable models={period?.top_models} loading={isPending} />
          </TableCard>
        </div>
      </div>
    </>
  )
}

function TableCard({ title, description, testId, children }: { title: string; description: string; testId: string; children: ReactNode }) {
  return (
    // Full width until the screen is wide enough for two tables side by side without scrolling.
    <Card className="min-w-0 gap-4 lg:col-span-2 2xl:col-span-1" data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="px-3 sm:px-6">{children}</CardContent>
    </Card>
  )
}
