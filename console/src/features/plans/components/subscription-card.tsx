/**
 * One subscription the user holds: its plan name, status, start and expiry, and each window's use as
 * a bar (used / allowance, when it resets), and whether it renews automatically. Admins see the same
 * card in a user's subscriptions, with their actions passed in as `actions` (the user's own page
 * passes the auto-renew switch, and a renewal waiting to be paid as `notice`).
 */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { renderQuota } from '@/lib/format'
import { cn } from '@/lib/utils'
import { SUBSCRIPTION_STATUS } from '@contract/enums'
import type { SubscriptionWindowView } from '@contract/plans'
import type { SubscriptionView } from '../api'
import { formatAllowance, formatTime } from '../format'

export function SubscriptionStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('plans')
  if (status === SUBSCRIPTION_STATUS.ACTIVE) return <Badge variant="success">{t('status.active')}</Badge>
  if (status === SUBSCRIPTION_STATUS.EXPIRED) return <Badge variant="secondary">{t('status.expired')}</Badge>
  if (status === SUBSCRIPTION_STATUS.REVOKED) return <Badge className="border-transparent bg-destructive/12 text-destructive">{t('status.revoked')}</Badge>
  return <Badge variant="outline">{t('status.unknown', { status })}</Badge>
}

function WindowBar({ w }: { w: SubscriptionWindowView }) {
  const { t } = useTranslation('plans')
  const allowance = w.quota ?? w.requests ?? 0
  const percent = allowance > 0 ? Math.min(100, (w.used / allowance) * 100) : 100
  const used = w.quota !== undefined ? renderQuota(w.used) : w.used.toLocaleString()
  return (
    <div className="grid gap-1.5" data-testid="subscription-window">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{t(`periodly.${w.period}`)}</span>
        <span className="tabular-nums">{t('window.used', { used, allowance: formatAllowance(t, w) })}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={allowance}
        aria-valuenow={Math.min(w.used, allowance)}
        aria-label={t(`periodly.${w.period}`)}
      >
        <div
          className={cn('h-full rounded-full transition-all', percent >= 100 ? 'bg-destructive' : percent >= 80 ? 'bg-warning' : 'bg-primary')}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground">{t('window.resets', { time: formatTime(w.resets_at) })}</p>
    </div>
  )
}

export function SubscriptionCard({ sub, actions, notice }: { sub: SubscriptionView; actions?: ReactNode; notice?: ReactNode }) {
  const { t } = useTranslation('plans')
  return (
    <Card className="gap-4" data-testid="subscription-card">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 break-words">{sub.name}</span>
          <SubscriptionStatusBadge status={sub.status} />
          <Badge variant="outline">{t(`source.${sub.source}`, { defaultValue: sub.source })}</Badge>
          {sub.auto_renew && sub.status === SUBSCRIPTION_STATUS.ACTIVE && <Badge variant="secondary">{t('subscription.autoRenews')}</Badge>}
        </CardTitle>
        <CardDescription className="tabular-nums">
          {t('subscription.period', { start: formatTime(sub.starts_at), end: sub.expires_at ? formatTime(sub.expires_at) : t('subscription.never') })}
        </CardDescription>
        {actions && <CardAction>{actions}</CardAction>}
      </CardHeader>
      <CardContent className="grid gap-4">
        {notice}
        {sub.windows.length === 0 && <p className="text-sm text-muted-foreground">{t('card.noWindows')}</p>}
        {sub.windows.map((w, i) => (
          <WindowBar key={i} w={w} />
        ))}
      </CardContent>
    </Card>
  )
}
