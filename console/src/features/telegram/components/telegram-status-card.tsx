/**
 * The bot's state for the admin: switched on and configured, the mode set in Settings and the one
 * last applied, the bot's username, and per mode the webhook (URL, pending updates, Telegram's
 * last delivery error from getWebhookInfo) or the poller (running, offset, last poll and error),
 * plus when the last update arrived and when the menus were last reloaded.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { AlertTriangle } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { timestamp2string } from '@/lib/format'
import { telegramStatusQueryOptions } from '../api'

function Item({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  )
}

export function TelegramStatusCard() {
  const { t } = useTranslation('telegram')
  const { data: s, isLoading } = useQuery(telegramStatusQueryOptions)
  const time = (v: number) => (v ? timestamp2string(v) : t('status.never'))
  if (isLoading || !s) return <Skeleton className="mb-6 h-40" />

  const active = s.enabled && s.configured
  const stale = active && s.applied_at > 0 && s.applied_mode !== s.mode
  const lastError = s.error || s.webhook?.last_error_message || s.polling?.last_error || ''
  return (
    <Card className="mb-6 gap-4" data-testid="telegram-status">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t('status.title')}
          {active ? <Badge variant="success">{t('status.enabled')}</Badge> : <Badge variant="secondary">{t('status.disabled')}</Badge>}
        </CardTitle>
        <CardDescription>{t('status.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!active && (
          <Alert variant="warning">
            <AlertTriangle />
            <AlertTitle>{s.configured ? t('status.offTitle') : t('status.unconfiguredTitle')}</AlertTitle>
            <AlertDescription>
              <span>
                {t('status.offHint')}{' '}
                <Link to="/panel/setting" className="font-medium underline underline-offset-4">
                  {t('status.toSettings')}
                </Link>
              </span>
            </AlertDescription>
          </Alert>
        )}
        {active && (s.applied_at === 0 || stale) && (
          <Alert variant="warning">
            <AlertTriangle />
            <AlertTitle>{t('status.reloadTitle')}</AlertTitle>
            <AlertDescription>{t('status.reloadHint')}</AlertDescription>
          </Alert>
        )}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-4">
          <Item label={t('status.bot')} testId="telegram-bot-username">
            {s.bot_username ? (
              <a href={`https://t.me/${s.bot_username}`} target="_blank" rel="noreferrer" className="underline-offset-4 hover:underline">
                @{s.bot_username}
              </a>
            ) : (
              '—'
            )}
          </Item>
          <Item label={t('status.mode')} testId="telegram-mode">
            {t(`modes.${s.mode}`)}
          </Item>
          <Item label={t('status.lastUpdate')}>{time(s.last_update_time)}</Item>
          <Item label={t('status.applied')}>{s.applied_at ? t('status.appliedValue', { time: timestamp2string(s.applied_at), count: s.menus_applied }) : t('status.never')}</Item>
          {s.webhook && (
            <>
              <div className="col-span-2 min-w-0">
                <Item label={t('status.webhookUrl')} testId="telegram-webhook-url">
                  <span title={s.webhook.url} className="font-mono text-xs">
                    {s.webhook.url || t('status.notSet')}
                  </span>
                </Item>
              </div>
              <Item label={t('status.pending')}>{s.webhook.pending_update_count}</Item>
              <Item label={t('status.lastErrorTime')}>{time(s.webhook.last_error_date)}</Item>
            </>
          )}
          {s.polling && (
            <>
              <Item label={t('status.poller')}>{s.polling.running ? t('status.running') : t('status.stopped')}</Item>
              <Item label={t('status.offset')}>{s.polling.offset}</Item>
              <Item label={t('status.lastPoll')}>{time(s.polling.last_poll_time)}</Item>
            </>
          )}
        </dl>
        {lastError && (
          <Alert variant="destructive" data-testid="telegram-last-error">
            <AlertTriangle />
            <AlertTitle>{t('status.lastError')}</AlertTitle>
            <AlertDescription className="break-all">{lastError}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  )
}
