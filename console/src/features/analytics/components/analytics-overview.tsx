/**
 * Site totals at the top of the analytics page: users, their balances and spending, invited
 * users, channels by status (enabled / disabled / auto-disabled / test-disabled) and redemption
 * codes (unused / used / disabled, with the quota redeemed).
 */
import type { ReactNode } from 'react'
import { Gift, Network, Receipt, UserPlus, Users, Wallet } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { StatCard, StatCardSkeleton } from '@/features/dashboard/components/stat-card'
import { renderQuotaFine } from '@/features/dashboard/format'
import type { SiteStatistics } from '@contract/analytics'

export function AnalyticsOverview({ stats }: { stats: SiteStatistics | undefined }) {
  const { t } = useTranslation('analytics')
  if (!stats) {
    return (
      <div className="grid gap-4 md:gap-6">
        <div className="grid grid-cols-2 gap-3 md:gap-4 xl:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <StatCardSkeleton key={i} />
          ))}
        </div>
        <div className="grid gap-4 md:gap-6 lg:grid-cols-2">
          <Skeleton className="h-36 rounded-xl" />
          <Skeleton className="h-36 rounded-xl" />
        </div>
      </div>
    )
  }
  const { channels, redemptions } = stats
  const channelTotal = channels.enabled + channels.disabled + channels.auto_disabled + channels.test_disabled
  return (
    <div className="grid gap-4 md:gap-6">
      <section className="grid grid-cols-2 gap-3 md:gap-4 xl:grid-cols-4" aria-label={t('overview.label')}>
        <StatCard icon={Users} label={t('overview.users')} value={stats.user_count.toLocaleString()} caption={t('overview.usersHint')} testId="stat-users" />
        <StatCard
          icon={Wallet}
          label={t('overview.balance')}
          value={renderQuotaFine(stats.total_quota)}
          caption={t('overview.balanceHint')}
          testId="stat-total-balance"
          tone="success"
        />
        <StatCard
          icon={Receipt}
          label={t('overview.used')}
          value={renderQuotaFine(stats.total_used_quota)}
          caption={t('overview.usedHint')}
          testId="stat-total-used"
          tone="warning"
        />
        <StatCard
          icon={UserPlus}
          label={t('overview.invited')}
          value={stats.invited_count.toLocaleString()}
          caption={t('overview.invitedHint', { percent: stats.user_count ? ((stats.invited_count / stats.user_count) * 100).toFixed(1) : '0.0' })}
          testId="stat-invited"
        />
      </section>
      <div className="grid gap-4 md:gap-6 lg:grid-cols-2">
        <CountsCard
          icon={Network}
          title={t('channels.title')}
          description={t('channels.description', { count: channelTotal })}
          testId="channel-counts"
          items={[
            { key: 'enabled', label: t('channels.enabled'), value: channels.enabled, dot: 'bg-success' },
            { key: 'disabled', label: t('channels.disabled'), value: channels.disabled, dot: 'bg-muted-foreground' },
            { key: 'auto_disabled', label: t('channels.autoDisabled'), value: channels.auto_disabled, dot: 'bg-destructive' },
            { key: 'test_disabled', label: t('channels.testDisabled'), value: channels.test_disabled, dot: 'bg-warning' },
          ]}
        />
        <CountsCard
          icon={Gift}
          title={t('redemptions.title')}
          description={t('redemptions.description', { quota: renderQuotaFine(redemptions.used_quota) })}
          testId="redemption-counts"
          items={[
            { key: 'unused', label: t('redemptions.unused'), value: redemptions.unused, dot: 'bg-success' },
            { key: 'used', label: t('redemptions.used'), value: redemptions.used, dot: 'bg-primary' },
            { key: 'disabled', label: t('redemptions.disabled'), value: redemptions.disabled, dot: 'bg-muted-foreground' },
          ]}
        />
      </div>
    </div>
  )
}

interface CountItem {
  key: string
  label: string
  value: number
  dot: string
}

function CountsCard({ icon: Icon, title, description, items, testId }: { icon: typeof Users; title: string; description: ReactNode; items: CountItem[]; testId: string }) {
  const total = items.reduce((s, i) => s + i.value, 0)
  return (
    <Card className="gap-4" data-testid={testId}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon className="size-4 text-muted-foreground" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          {items.map((i) => (
            <div key={i.key} className={cn('h-full', i.dot)} style={{ width: total ? `${(i.value / total) * 100}%` : 0 }} />
          ))}
        </div>
        <dl className={cn('grid gap-3', items.length === 4 ? 'grid-cols-2 sm:grid-cols-4' : 'grid-cols-3')}>
          {items.map((i) => (
            <div key={i.key} className="min-w-0" data-testid={`${testId}-${i.key}`}>
              <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                <span className={cn('size-2 shrink-0 rounded-full', i.dot)} />
                <span className="truncate">{i.label}</span>
              </dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={`${testId}-${i.key}-value`}>
                {i.value.toLocaleString()}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  )
}
