/** One channel's delivery log, newest first, ten a page: time, event, subject, status, attempts, HTTP status and the (redacted) error. */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { deliveriesQueryOptions, type NotifyDeliveryView } from '../api'

const STATUS_VARIANT: Record<NotifyDeliveryView['status'], 'default' | 'secondary' | 'destructive'> = { delivered: 'default', pending: 'secondary', failed: 'destructive' }

export function NotifyDeliveries({ channelId }: { channelId: number }) {
  const { t } = useTranslation('notify')
  const [p, setP] = useState(1)
  const { data, isLoading } = useQuery({ ...deliveriesQueryOptions(channelId, p), placeholderData: keepPreviousData })
  if (isLoading) return <Loader2 className="mx-auto my-8 animate-spin text-muted-foreground" />
  if (!data?.data.length) return <p className="rounded-md border p-6 text-center text-sm text-muted-foreground">{t('deliveries.empty')}</p>
  const pages = Math.max(1, Math.ceil(data.total_count / data.size))
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto rounded-md border">
        <Table data-testid="notify-deliveries">
          <TableHeader>
            <TableRow>
              <TableHead>{t('deliveries.time')}</TableHead>
              <TableHead>{t('deliveries.event')}</TableHead>
              <TableHead>{t('deliveries.status')}</TableHead>
              <TableHead className="text-right">{t('deliveries.attempts')}</TableHead>
              <TableHead>{t('deliveries.error')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.data.map((d) => (
              <TableRow key={d.id}>
                <TableCell className="text-xs whitespace-nowrap">{new Date(d.created_at * 1000).toLocaleString()}</TableCell>
                <TableCell>
                  <code className="font-mono text-xs">{d.event}</code>
                  <div className="text-xs text-muted-foreground">{d.subject}</div>
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS_VARIANT[d.status]}>{t(`deliveries.states.${d.status}`)}</Badge>
                  {d.http_status > 0 && <span className="ml-1 font-mono text-xs text-muted-foreground">{d.http_status}</span>}
                </TableCell>
                <TableCell className="text-right tabular-nums">{d.attempts}</TableCell>
                <TableCell className="max-w-64 truncate text-xs text-muted-foreground" title={d.error}>
                  {d.error || '—'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {pages > 1 && (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button variant="outline" size="sm" disabled={p <= 1} onClick={() => setP(p - 1)}>
            {t('deliveries.prev')}
          </Button>
          <span className="tabular-nums">
            {p} / {pages}
          </span>
          <Button variant="outline" size="sm" disabled={p >= pages} onClick={() => setP(p + 1)}>
            {t('deliveries.next')}
          </Button>
        </div>
      )}
    </div>
  )
}
