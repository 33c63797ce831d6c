/**
 * The gateway list (admin): icon and name, type, currency, fees, sort, the notify URL with a copy
 * button, an enable switch, edit and delete. Few rows, so one unpaged table (the server sorts by
 * `sort`); the create/edit sheet is gateway-sheet.tsx.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Copy, Pencil, Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Switch } from '@/components/ui/switch'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { copyText } from '@/lib/clipboard'
import { timestamp2string } from '@/lib/format'
import { gatewaysQueryOptions, useDeleteGateway, useToggleGateway, type Gateway } from '../api'
import { GatewayIcon } from './gateway-icon'
import { GatewaySheet } from './gateway-sheet'
import { useAuthUser } from '@/stores/auth-store'
import { ROLE } from '@contract/enums'

const fee = (g: Gateway) => {
  const parts = []
  if (g.percent_fee > 0) parts.push(`${+(g.percent_fee * 100).toFixed(2)}%`)
  else if (g.fixed_fee > 0) parts.push(`$${g.fixed_fee.toFixed(2)}`)
  return parts.join(' ') || '—'
}

export function GatewaysPanel() {
  const { t } = useTranslation('payments')
  const { data, isLoading } = useQuery(gatewaysQueryOptions)
  const toggle = useToggleGateway()
  const remove = useDeleteGateway()
  const [sheet, setSheet] = useState<{ open: boolean; row?: Gateway }>({ open: false })
  const [deleting, setDeleting] = useState<Gateway | undefined>()
  const rows = data?.data ?? []
  // Gateways move money and hold secrets: creating, changing and deleting one is root's (the API refuses others).
  const isRoot = (useAuthUser()?.role ?? 0) >= ROLE.ROOT

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{isRoot ? t('gateways.description') : t('gateways.rootOnly')}</p>
        {isRoot && (
          <Button onClick={() => setSheet({ open: true })} data-testid="gateway-create">
            <Plus />
            {t('gateways.create')}
          </Button>
        )}
      </div>
      <Card className="gap-0 overflow-hidden py-0">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('columns.name')}</TableHead>
              <TableHead>{t('columns.type')}</TableHead>
              <TableHead>{t('columns.currency')}</TableHead>
              <TableHead>{t('columns.fee')}</TableHead>
              <TableHead className="w-16">{t('columns.sort')}</TableHead>
              <TableHead className="hidden lg:table-cell">{t('columns.notifyUrl')}</TableHead>
              <TableHead className="hidden md:table-cell">{t('columns.createdAt')}</TableHead>
              <TableHead className="w-20">{t('columns.enable')}</TableHead>
              <TableHead className="w-24 text-right">
                <span className="sr-only">{t('columns.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading &&
              Array.from({ length: 3 }, (_, i) => (
                <TableRow key={i}>
                  <TableCell colSpan={9}>
                    <Skeleton className="h-6 w-full" />
                  </TableCell>
                </TableRow>
              ))}
            {!isLoading && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={9} className="h-24 text-center text-muted-foreground">
                  {t('gateways.empty')}
                </TableCell>
              </TableRow>
            )}
            {rows.map((g) => (
              <TableRow key={g.id} data-testid="gateway-row">
                <TableCell>
                  <span className="flex items-center gap-2 font-medium">
                    <GatewayIcon type={g.type} icon={g.icon} />
                    {g.name}
                  </span>
                </TableCell>
                <TableCell>{t(`types.${g.type}`)}</TableCell>
                <TableCell>{g.currency}</TableCell>
                <TableCell className="tabular-nums">{fee(g)}</TableCell>
                <TableCell className="tabular-nums">{g.sort}</TableCell>
                <TableCell className="hidden max-w-72 lg:table-cell">
                  <span className="flex items-center gap-1">
                    <code className="truncate text-xs text-muted-foreground" title={g.notify_url}>
                      {g.notify_url}
                    </code>
                    <Button variant="ghost" size="icon" className="size-7 shrink-0" onClick={() => copyText(g.notify_url)} aria-label={t('actions.copyNotify')}>
                      <Copy className="size-3.5" />
                    </Button>
                  </span>
                </TableCell>
                <TableCell className="hidden text-xs whitespace-nowrap text-muted-foreground tabular-nums md:table-cell" data-testid="gateway-created">
                  {timestamp2string(g.created_at)}
                </TableCell>
                <TableCell>
                  <Switch
                    checked={g.enable}
                    disabled={!isRoot || toggle.isPending}
                    onCheckedChange={(enable) => toggle.mutate({ id: g.id, enable })}
                    aria-label={t('columns.enable')}
                    data-testid="gateway-enable"
                  />
                </TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  {isRoot && (
                    <>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-8"
                        onClick={() => setSheet({ open: true, row: g })}
                        aria-label={t('actions.edit')}
                        data-testid="gateway-edit"
                      >
                        <Pencil />
                      </Button>
                      <Button variant="ghost" size="icon" className="size-8 text-destructive" onClick={() => setDeleting(g)} aria-label={t('actions.delete')}>
                        <Trash2 />
                      </Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {/* Keyed by the gateway: editing right after the create sheet closed gets a fresh sheet, so the
          closing one's outside-click dismissal cannot swallow the new one. */}
      <GatewaySheet key={sheet.row?.id ?? 'new'} open={sheet.open} row={sheet.row} onOpenChange={(open) => setSheet((s) => ({ ...s, open }))} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t('gateways.deleteTitle', { name: deleting?.name ?? '' })}
        description={t('gateways.deleteDescription')}
        confirmText={t('actions.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(undefined) })}
      />
    </div>
  )
}
