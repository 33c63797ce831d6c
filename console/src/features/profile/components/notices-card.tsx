/**
 * The profile's "My notices" section: the low-balance reminder mail, and the budget notices of the
 * user's API keys by mail and in the bound Telegram chat (disabled until a chat is bound).
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { UserNoticePrefs } from '@contract/notify'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { Switch } from '@/components/ui/switch'
import { noticesQueryOptions, useSaveNotices } from '../notices-api'

const SWITCHES: (keyof UserNoticePrefs)[] = ['balance_email', 'budget_email', 'budget_telegram']

export function NoticesCard() {
  const { t } = useTranslation('profile')
  const { data } = useQuery(noticesQueryOptions)
  const save = useSaveNotices()
  return (
    <Card data-testid="notices-card">
      <CardHeader>
        <CardTitle>{t('notices.title')}</CardTitle>
        <CardDescription>{t('notices.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!data ? (
          <Skeleton className="h-32" />
        ) : (
          SWITCHES.map((key) => {
            const unavailable = key === 'budget_telegram' ? !data.telegram_bound : !data.has_email
            return (
              <div key={key} className="flex items-start justify-between gap-4 rounded-lg border p-3">
                <div className="grid gap-1">
                  <Label htmlFor={`notice-${key}`}>{t(`notices.${key}`)}</Label>
                  <p className="text-xs text-muted-foreground">{t(`notices.${key}_hint`)}</p>
                  {unavailable && <p className="text-xs text-amber-600 dark:text-amber-400">{t(key === 'budget_telegram' ? 'notices.needsTelegram' : 'notices.needsEmail')}</p>}
                </div>
                <Switch
                  id={`notice-${key}`}
                  data-testid={`notice-${key}`}
                  checked={data[key]}
                  disabled={save.isPending || (unavailable && !data[key])}
                  onCheckedChange={(checked) =>
                    save.mutate({ balance_email: data.balance_email, budget_email: data.budget_email, budget_telegram: data.budget_telegram, [key]: checked })
                  }
                />
              </div>
            )
          })
        )}
      </CardContent>
    </Card>
  )
}
