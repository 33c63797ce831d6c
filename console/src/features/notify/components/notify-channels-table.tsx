/** The alert channels: name, type, where it posts, whether a secret is stored, its events, state, and per row test, log, edit and delete. */
import { useQuery } from '@tanstack/react-query'
import { History, Loader2, Pencil, Send, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { type NotifyChannelView, notifyChannelsQueryOptions, useTestChannel } from '../api'
import { useNotifyDialog } from './notify-provider'

function TestButton({ row }: { row: NotifyChannelView }) {
  const { t } = useTranslation('notify')
  const test = useTestChannel()
  return (
    <Button variant="outline" size="sm" disabled={test.isPending} onClick={() => test.mutate(row.id)} data-testid={`notify-test-${row.id}`}>
      {test.isPending ? <Loader2 className="animate-spin" /> : <Send />}
      {t('actions.test')}
    </Button>
  )
}

const destination = (row: NotifyChannelView) => row.url || row.config.chat_id || row.config.address || ''

export function NotifyChannelsTable() {
  const { t } = useTranslation('notify')
  const { open } = useNotifyDialog()
  const { data, isLoading } = useQuery(notifyChannelsQueryOptions)
  if (isLoading) return <Loader2 className="mx-auto my-8 animate-spin text-muted-foreground" />
  if (!data?.length) return <p className="rounded-md border p-8 text-center text-muted-foreground">{t('empty')}</p>
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table data-testid="notify-channels">
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.name')}</TableHead>
            <TableHead>{t('fields.type')}</TableHead>
            <TableHead>{t('columns.destination')}</TableHead>
            <TableHead>{t('fields.events')}</TableHead>
            <TableHead>{t('columns.state')}</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">{t('columns.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.map((row) => (
            <TableRow key={row.id}>
              <TableCell className="font-medium">{row.name}</TableCell>
              <TableCell>{t(`types.${row.type}`)}</TableCell>
              <TableCell className="max-w-56 truncate font-mono text-xs" title={destination(row)}>
                {destination(row)}
              </TableCell>
              <TableCell className="max-w-64">
                <div className="flex flex-wrap gap-1">
                  {row.events.length ? (
                    row.events.map((e) => (
                      <Badge key={e} variant="outline" className="font-mono text-[11px]">
                        {e}
                      </Badge>
                    ))
                  ) : (
                    <span className="text-xs text-muted-foreground">{t('noEvents')}</span>
                  )}
                </div>
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1">
                  <Badge variant={row.enabled ? 'default' : 'secondary'}>{row.enabled ? t('state.enabled') : t('state.disabled')}</Badge>
                  {row.has_secret && <Badge variant="outline">{t('state.signed')}</Badge>}
                </div>
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <TestButton row={row} />
                  <Button variant="ghost" size="icon" aria-label={t('actions.deliveries')} onClick={() => open({ kind: 'deliveries', row })} data-testid={`notify-log-${row.id}`}>
                    <History />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={t('actions.edit')} onClick={() => open({ kind: 'edit', row })} data-testid={`notify-edit-${row.id}`}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={t('actions.delete')} onClick={() => open({ kind: 'delete', row })}>
                    <Trash2 />
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
