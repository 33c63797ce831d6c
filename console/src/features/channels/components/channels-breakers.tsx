/**
 * The breakers part of the channel sheet (edit mode): each model the channel lists and each key of
 * its pool with its breaker — closed, open until a time, or half-open (the next request is the
 * probe) — and how many times in a row it opened (each failed probe doubles the cool-down, up to
 * the cap the worker reports). Read every 15 s while the sheet is open; stacked rows for phones.
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { timestamp2string } from '@/lib/format'
import { cn } from '@/lib/utils'
import { channelBreakersQueryOptions, type ChannelBreaker } from '../health-api'

const STATE = {
  closed: { label: 'breakers.closed', className: 'border-transparent bg-success/15 text-success' },
  open: { label: 'breakers.open', className: 'border-transparent bg-destructive/15 text-destructive' },
  'half-open': { label: 'breakers.halfOpen', className: 'border-transparent bg-warning/20 text-amber-700 dark:text-amber-300' },
} as const

export function ChannelsBreakers({ channelId }: { channelId: number }) {
  const { t } = useTranslation('channels')
  const query = useQuery(channelBreakersQueryOptions(channelId))
  return (
    <div className="grid gap-2" data-testid="channel-breakers">
      <h4 className="text-sm font-medium">{t('breakers.title')}</h4>
      {query.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : query.isError ? (
        <p className="text-sm text-destructive">{t('breakers.failed')}</p>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">{t('breakers.hint', { cap: Math.round(query.data.max_cooldown_seconds / 60) })}</p>
          {query.data.breakers.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('breakers.empty')}</p>
          ) : (
            <ul className="divide-y rounded-md border">
              {query.data.breakers.map((b) => (
                <BreakerRow key={`${b.kind}:${b.key_hash || b.name}`} breaker={b} />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  )
}

function BreakerRow({ breaker: b }: { breaker: ChannelBreaker }) {
  const { t } = useTranslation('channels')
  const meta = STATE[b.state]
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm" data-testid={`channel-breaker-${b.kind}-${b.key_hash || b.name}`}>
      <span className="text-xs text-muted-foreground">{t(b.kind === 'key' ? 'breakers.key' : 'breakers.model')}</span>
      <span className={cn('break-all', b.kind === 'key' && 'font-mono text-xs')}>{b.name}</span>
      <Badge className={cn('ml-auto', meta.className)}>{t(meta.label)}</Badge>
      {b.state !== 'closed' && (
        <p className="w-full text-xs text-muted-foreground">
          {b.state === 'open' && `${t('breakers.openUntil', { time: timestamp2string(Math.ceil(b.until / 1000)) })} · `}
          {t('breakers.opens', { count: b.opens })}
        </p>
      )}
    </li>
  )
}
