/**
 * The invite card: the user's invite link (`<site>/register?aff=<code>`, code from GET
 * /api/user/aff) with a copy button, how many people registered through it and the rewards earned.
 * The reward amounts are admin settings the console cannot read, so the text stays generic.
 */
import { useQuery } from '@tanstack/react-query'
import { Copy, Gift } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { copyText } from '@/lib/clipboard'
import { renderQuota } from '@/lib/format'
import type { UserProfile } from '@/stores/auth-store'
import { affCodeQueryOptions } from '../api'
import { siteUrl } from '@/lib/base-path'

export function inviteLink(code: string): string {
  return `${siteUrl()}/register?aff=${encodeURIComponent(code)}`
}

export function InviteCard({ user }: { user: UserProfile }) {
  const { t } = useTranslation('topup')
  const { data: code } = useQuery(affCodeQueryOptions)
  const link = code ? inviteLink(code) : ''
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gift className="size-5 text-primary" />
          {t('invite.title')}
        </CardTitle>
        <CardDescription>{t('invite.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <span className="text-sm font-medium" id="invite-link-label">
            {t('invite.link')}
          </span>
          {code ? (
            <div className="flex gap-2">
              <Input
                readOnly
                value={link}
                aria-labelledby="invite-link-label"
                className="font-mono text-[13px]"
                data-testid="invite-link"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button type="button" variant="outline" onClick={() => copyText(link)} data-testid="invite-copy">
                <Copy />
                <span className="hidden sm:inline">{t('invite.copy')}</span>
                <span className="sr-only sm:hidden">{t('invite.copy')}</span>
              </Button>
            </div>
          ) : (
            <Skeleton className="h-9 w-full" />
          )}
        </div>
        <dl className="grid grid-cols-2 gap-4 rounded-lg border bg-muted/40 p-4 text-sm">
          <div className="grid gap-1">
            <dt className="text-muted-foreground">{t('invite.count')}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="invite-count">
              {user.aff_count}
            </dd>
          </div>
          <div className="grid gap-1">
            <dt className="text-muted-foreground">{t('invite.earned')}</dt>
            <dd className="text-lg font-semibold tabular-nums">{renderQuota(user.aff_quota)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  )
}
