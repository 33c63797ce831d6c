/**
 * The health part of the channel sheet (edit mode): a pool's keys, masked, with their status,
 * the reason a key was disabled, its next cron retest and a re-enable button; then the channel's
 * breakers per model and key (channels-breakers.tsx), then the status history (automatic and
 * manual changes with time, reason and request id), ten at a time.
 * Stacked rows rather than tables, so it reads at phone width.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Loader2, RotateCcw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { timestamp2string } from '@/lib/format'
import { channelHistoryQueryOptions, channelKeysQueryOptions, useEnableChannelKey, type ChannelKey } from '../health-api'
import { statusMeta } from '../options'
import { ChannelsBreakers } from './channels-breakers'

function StatusBadge({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('channels')
  const meta = statusMeta(status)
  return (
    <Badge className={meta.className} data-testid={testId}>
      {t(meta.label)}
    </Badge>
  )
}

export function ChannelsHealth({ channelId }: { channelId: number }) {
  const { t } = useTranslation('channels')
  const keys = useQuery(channelKeysQueryOptions(channelId))
  const pool = keys.data?.key_mode === 'pool'
  return (
    <div className="grid gap-5 sm:col-span-2" data-testid="channel-health">
      {pool && <KeyList channelId={channelId} keys={keys.data!.keys} />}
      {keys.data && keys.data.channel_retest_at > 0 && (
        <p className="text-sm text-muted-foreground">{t('health.channelRetest', { time: timestamp2string(keys.data.channel_retest_at) })}</p>
      )}
      <ChannelsBreakers channelId={channelId} />
      <History channelId={channelId} keys={keys.data?.keys ?? []} />
    </div>
  )
}

function KeyList({ channelId, keys }: { channelId: number; keys: ChannelKey[] }) {
  const { t } = useTranslation('channels')
  const enable = useEnableChannelKey(channelId)
  const live = keys.filter((k) => k.status === 1).length
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="text-sm font-medium">{t('health.keysTitle')}</h4>
        <span className="text-xs text-muted-foreground">{t('health.keysSummary', { live, total: keys.length })}</span>
      </div>
      <ul className="divide-y rounded-md border">
        {keys.map((k) => (
          <li key={k.hash} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2" data-testid={`channel-key-${k.index}`}>
            <span className="font-mono text-xs">
              <span className="text-muted-foreground">#{k.index + 1}</span> {k.masked}
            </span>
            <StatusBadge status={k.status} testId={`channel-key-status-${k.index}`} />
            {k.status !== 1 && (
              <Button
                type="button"
                size="sm"
                variant="outline"
                className="ml-auto h-7"
                disabled={enable.isPending}
                onClick={() => enable.mutate(k.hash)}
                data-testid={`channel-key-enable-${k.index}`}
              >
                {enable.isPending && enable.variables === k.hash ? <Loader2 className="animate-spin" /> : <RotateCcw />}
                {t('health.enableKey')}
              </Button>
            )}
            {k.status !== 1 && (
              <div className="w-full text-xs text-muted-foreground">
                <p className="break-all">{k.reason}</p>
                <p>
                  {t('health.disabledAt', { time: timestamp2string(k.changed_at) })}
                  {k.retest_at > 0 && ` · ${t('health.nextRetest', { time: timestamp2string(k.retest_at), retests: k.retests })}`}
                </p>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}

function History({ channelId, keys }: { channelId: number; keys: ChannelKey[] }) {
  const { t } = useTranslation('channels')
  const [page, setPage] = useState(1)
  const history = useQuery(channelHistoryQueryOptions(channelId, page))
  const named = (hash: string) => {
    const key = keys.find((k) => k.hash === hash)
    return key ? `#${key.index + 1} ${key.masked}` : hash
  }
  const total = history.data?.total_count ?? 0
  const pages = Math.max(1, Math.ceil(total / 10))
  return (
    <div className="grid gap-2">
      <h4 className="text-sm font-medium">{t('health.historyTitle')}</h4>
      {history.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : total === 0 ? (
        <p className="text-sm text-muted-foreground">{t('health.historyEmpty')}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="channel-history">
          {history.data!.data.map((h) => (
            <li key={h.id} className="grid gap-1 px-3 py-2 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="tabular-nums text-muted-foreground">{timestamp2string(h.created_at)}</span>
                <StatusBadge status={h.status} />
                <span className="text-xs">{h.key_hash ? t('health.keyTarget', { key: named(h.key_hash) }) : t('health.channelTarget')}</span>
              </div>
              <p className="break-all text-xs text-muted-foreground">{h.reason}</p>
              {h.request_id && <p className="break-all font-mono text-xs text-muted-foreground">{t('health.requestId', { id: h.request_id })}</p>}
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <div className="flex items-center justify-end gap-2">
          <Button type="button" size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('health.newer')}
          </Button>
          <span className="text-xs text-muted-foreground">
            {page} / {pages}
          </span>
          <Button type="button" size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('health.older')}
          </Button>
        </div>
      )}
    </div>
  )
}
