/** Account overview card: avatar, names, role and group, balance and usage, dates. */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent } from '@/components/ui/card'
import { Separator } from '@/components/ui/separator'
import { UserAvatar } from '@/components/layout/user-menu'
import { renderQuota, timestamp2string } from '@/lib/format'
import type { UserProfile } from '@/stores/auth-store'

const ROLE_KEYS: Record<number, string> = { 1: 'roles.user', 10: 'roles.admin', 100: 'roles.root' }

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg bg-muted/60 p-3">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="mt-1 truncate text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
    </div>
  )
}

export function ProfileOverview({ user }: { user: UserProfile }) {
  const { t } = useTranslation('profile')
  return (
    <Card className="gap-5">
      <CardContent className="grid gap-5">
        <div className="flex items-center gap-4">
          <UserAvatar user={user} className="size-16 text-2xl" />
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold" data-testid="profile-display-name">
              {user.display_name || user.username}
            </p>
            <p className="truncate text-sm text-muted-foreground" data-testid="profile-username">
              @{user.username}
            </p>
            <div className="mt-2 flex flex-wrap gap-1.5">
              <Badge variant={user.role >= 10 ? 'default' : 'secondary'}>{t(ROLE_KEYS[user.role] ?? 'roles.unknown')}</Badge>
              <Badge variant="outline">{t('overview.group', { group: user.group })}</Badge>
            </div>
          </div>
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Stat label={t('overview.balance')} value={renderQuota(user.quota)} testId="profile-balance" />
          <Stat label={t('overview.used')} value={renderQuota(user.used_quota)} />
          <Stat label={t('overview.requests')} value={user.request_count.toLocaleString()} />
          <Stat label={t('overview.invited')} value={user.aff_count.toLocaleString()} />
        </div>
        <Separator />
        <dl className="grid gap-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{t('overview.userId')}</dt>
            <dd className="font-medium tabular-nums">{user.id}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{t('overview.created')}</dt>
            <dd className="font-medium tabular-nums">{user.created_time ? timestamp2string(user.created_time) : '—'}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{t('overview.lastLogin')}</dt>
            <dd className="font-medium tabular-nums">{user.last_login_time ? timestamp2string(user.last_login_time) : '—'}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  )
}
