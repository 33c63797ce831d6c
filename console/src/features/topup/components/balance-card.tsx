/** The current balance (GET /api/user/self quota) with what has been used and how many requests. */
import { Wallet } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Separator } from '@/components/ui/separator'
import { renderNumber, renderQuota } from '@/lib/format'
import type { UserProfile } from '@/stores/auth-store'

export function BalanceCard({ user }: { user: UserProfile }) {
  const { t } = useTranslation('topup')
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardDescription className="flex items-center gap-2">
          <Wallet className="size-4" />
          {t('balance.title')}
        </CardDescription>
        <CardTitle className="text-3xl font-bold tabular-nums" data-testid="topup-balance">
          {renderQuota(user.quota)}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Separator />
        <dl className="grid grid-cols-2 gap-4 text-sm">
          <div className="grid gap-1">
            <dt className="text-muted-foreground">{t('balance.used')}</dt>
            <dd className="font-medium tabular-nums">{renderQuota(user.used_quota)}</dd>
          </div>
          <div className="grid gap-1">
            <dt className="text-muted-foreground">{t('balance.requests')}</dt>
            <dd className="font-medium tabular-nums">{renderNumber(user.request_count)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  )
}
