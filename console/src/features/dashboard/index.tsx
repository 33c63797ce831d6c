/**
 * /panel/dashboard, for every user: balance, used quota and request count,
 * today's requests / consumption / tokens, charts of the chosen range (consumption by model, its
 * share per model, tokens and requests per day), per-model statistics and the callable models.
 * Everything comes from GET /api/user/dashboard; the range lives in the URL. Administrators
 * without a channel first see how to add one (components/getting-started.tsx), and administrators
 * see the plans card (plan sales of the range, active subscriptions) the API answers them alone.
 */
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { Activity, CalendarClock, Coins, Hash, Receipt, Wallet } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PageHeader } from '@/components/page-header'
import { renderNumber } from '@/lib/format'
import { cn } from '@/lib/utils'
import { dashboardQueryOptions } from './api'
import { AvailableModels } from './components/available-models'
import { CacheHitChart } from './components/cache-hit-chart'
import { ConsumptionChart, ModelShareChart, RequestsChart, TokensChart } from './components/dashboard-charts'
import { DateRangePicker } from './components/date-range-picker'
import { GettingStarted } from './components/getting-started'
import { ModelStatsTable } from './components/model-stats-table'
import { PlanFiguresCard } from './components/plan-figures-card'
import { SavedQuotaBadge } from './components/saved-quota'
import { ChartCard, StatCard, StatCardSkeleton } from './components/stat-card'
import { modelTotals, savedQuotaOf } from './data'
import { renderQuotaFine } from './format'
import { dateOf, dayStart, rangeDays, resolveRange, todayUtc } from './range'

const route = getRouteApi('/panel/dashboard')

export function Dashboard() {
  const { t } = useTranslation('dashboard')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const range = useMemo(() => resolveRange(search), [search])
  const { data, isPending, isPlaceholderData } = useQuery(dashboardQueryOptions(range))

  const days = useMemo(() => rangeDays(range), [range])
  const rows = useMemo(() => data?.rows ?? [], [data])
  const totals = useMemo(() => modelTotals(rows), [rows])
  const palette = useMemo(() => totals.map((m) => m.model_name), [totals])
  const empty = !isPending && rows.length === 0 ? t('noUsage') : false
  const rangeTotal = totals.reduce((s, m) => s + m.quota, 0)
  const rangeRequests = totals.reduce((s, m) => s + m.request_count, 0)
  const rangeSaved = useMemo(() => savedQuotaOf(rows), [rows])
  // Yesterday's figures as the captions of today's cards, when the period includes yesterday.
  const yesterday = useMemo(() => {
    const date = dateOf(dayStart(todayUtc()) - 86400)
    if (!days.includes(date)) return null
    const day = rows.filter((r) => r.date === date)
    return {
      requests: day.reduce((s, r) => s + r.request_count, 0),
      quota: day.reduce((s, r) => s + r.quota, 0),
      tokens: day.reduce((s, r) => s + r.prompt_tokens + r.completion_tokens, 0),
    }
  }, [days, rows])
  const vsYesterday = (value: string) => (yesterday ? t('cards.yesterday', { value }) : t('cards.todayHint'))

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<DateRangePicker range={range} onChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }) })} />}
      />
      <div className={cn('grid gap-4 transition-opacity md:gap-6', isPlaceholderData && 'opacity-60')} aria-busy={isPlaceholderData}>
        <GettingStarted />
        <section className="grid grid-cols-2 gap-3 md:grid-cols-3 md:gap-4 2xl:grid-cols-6" aria-label={t('cards.label')}>
          {!data ? (
            Array.from({ length: 6 }, (_, i) => <StatCardSkeleton key={i} />)
          ) : (
            <>
              <StatCard icon={Wallet} label={t('cards.balance')} value={renderQuotaFine(data.balance.quota)} caption={t('cards.balanceHint')} testId="stat-balance" />
              <StatCard icon={Receipt} label={t('cards.used')} value={renderQuotaFine(data.balance.used_quota)} caption={t('cards.usedHint')} testId="stat-used" tone="warning" />
              <StatCard
                icon={Hash}
                label={t('cards.requests')}
                value={data.balance.request_count.toLocaleString()}
                caption={t('cards.requestsHint')}
                testId="stat-requests"
                tone="success"
              />
              <StatCard
                icon={Activity}
                label={t('cards.todayRequests')}
                value={data.today.request_count.toLocaleString()}
                caption={vsYesterday((yesterday?.requests ?? 0).toLocaleString())}
                testId="stat-today-requests"
              />
              <StatCard
                icon={Coins}
                label={t('cards.todayQuota')}
                value={renderQuotaFine(data.today.quota)}
                caption={vsYesterday(renderQuotaFine(yesterday?.quota ?? 0))}
                testId="stat-today-quota"
                tone="warning"
              />
              <StatCard
                icon={CalendarClock}
                label={t('cards.todayTokens')}
                value={renderNumber(data.today.tokens)}
                caption={vsYesterday(renderNumber(yesterday?.tokens ?? 0))}
                testId="stat-today-tokens"
                tone="success"
              />
            </>
          )}
        </section>

        {data?.plans && <PlanFiguresCard plans={data.plans} range={range} />}

        <div className="grid gap-4 md:gap-6 lg:grid-cols-3">
          <ChartCard
            className="lg:col-span-2"
            title={t('charts.consumption')}
            description={data ? t('charts.consumptionHint', { total: renderQuotaFine(rangeTotal), count: rangeRequests }) : undefined}
            action={data && <SavedQuotaBadge label={t('charts.saved', { quota: renderQuotaFine(rangeSaved) })} testId="saved-quota" />}
            loading={isPending}
            empty={empty}
            bodyHeight="h-72"
            testId="card-consumption"
          >
            <ConsumptionChart rows={rows} days={days} palette={palette} />
          </ChartCard>
          <ChartCard title={t('charts.share')} description={t('charts.shareHint')} loading={isPending} empty={empty} bodyHeight="h-72">
            <ModelShareChart totals={totals} />
          </ChartCard>
        </div>

        <div className="grid gap-4 md:gap-6 lg:grid-cols-2">
          <ChartCard title={t('charts.tokens')} description={t('charts.tokensHint')} loading={isPending} empty={empty}>
            <TokensChart rows={rows} days={days} />
          </ChartCard>
          <ChartCard title={t('charts.requests')} description={t('charts.requestsHint')} loading={isPending} empty={empty}>
            <RequestsChart rows={rows} days={days} palette={palette} />
          </ChartCard>
        </div>

        <ChartCard
          title={t('charts.cacheHits')}
          description={t('charts.cacheHitsHint')}
          loading={isPending}
          empty={!isPending && !rows.some((r) => r.prompt_tokens > 0) ? t('noUsage') : false}
          bodyHeight="h-72"
          testId="card-cache-hits"
        >
          <CacheHitChart rows={rows} />
        </ChartCard>

        <Card className="min-w-0 gap-4" data-testid="model-stats">
          <CardHeader>
            <CardTitle>{t('table.title')}</CardTitle>
            <CardDescription>{t('table.description', { from: range.from, to: range.to })}</CardDescription>
          </CardHeader>
          <CardContent className="px-3 sm:px-6">
            <ModelStatsTable totals={totals} loading={isPending} />
          </CardContent>
        </Card>

        <AvailableModels models={data?.models} />
      </div>
    </>
  )
}
