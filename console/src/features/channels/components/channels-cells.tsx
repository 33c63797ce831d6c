/**
 * Interactive cells of the channels table: the status badge (reason in a tooltip) with its
 * enable/disable switch and the auto-disable flag, the response time that runs a speed test when
 * clicked (last test time under it), the balance that
 * refreshes when clicked (for types with a balance, when the server offers it), and the inline
 * priority / weight editors.
 */
import { useState } from 'react'
import { Loader2, RefreshCw, ShieldCheck, ShieldOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { timestamp2string } from '@/lib/format'
import { notify } from '@/lib/notify'
import { cn } from '@/lib/utils'
import { usePatchChannel, useRefreshBalance, useTestChannel } from '../api'
import { statusMeta } from '../options'
import { inlineNumberValid } from '../schema'
import { useChannelsDialog } from './channels-provider'
import { CHANNEL_STATUS } from '@contract/enums'
import type { Channel } from '@contract/channels'

export function StatusCell({ row }: { row: Channel }) {
  const { t } = useTranslation('channels')
  const patch = usePatchChannel()
  const meta = statusMeta(row.status)
  const badge = (
    <Badge className={meta.className} data-testid={`channel-status-${row.id}`}>
      {t(meta.label)}
    </Badge>
  )
  return (
    <div className="flex items-center gap-2">
      <Switch
        checked={row.status === CHANNEL_STATUS.ENABLED}
        disabled={patch.isPending}
        aria-label={row.status === CHANNEL_STATUS.ENABLED ? t('actions.disable') : t('actions.enable')}
        onCheckedChange={(on) => patch.mutate({ id: row.id, status: on ? 1 : 2 })}
      />
      {row.status_reason ? (
        <Tooltip>
          <TooltipTrigger asChild>
            <span tabIndex={0} className="cursor-help rounded-md">
              {badge}
            </span>
          </TooltipTrigger>
          <TooltipContent className="max-w-xs">{row.status_reason}</TooltipContent>
        </Tooltip>
      ) : (
        badge
      )}
      <Tooltip>
        <TooltipTrigger asChild>
          <span tabIndex={0} className="rounded-sm text-muted-foreground" aria-label={row.auto_ban ? t('autoBan.autoHint') : t('autoBan.manualHint')}>
            {row.auto_ban ? <ShieldCheck className="size-4" /> : <ShieldOff className="size-4" />}
          </span>
        </TooltipTrigger>
        <TooltipContent>{row.auto_ban ? t('autoBan.autoHint') : t('autoBan.manualHint')}</TooltipContent>
      </Tooltip>
    </div>
  )
}

const speedClass = (ms: number) => (ms <= 1000 ? 'text-success' : ms <= 3000 ? 'text-amber-600 dark:text-amber-400' : 'text-destructive')

export function ResponseTimeCell({ row }: { row: Channel }) {
  const { t } = useTranslation('channels')
  const test = useTestChannel()
  const { open } = useChannelsDialog()
  const tested = row.test_time > 0
  return (
    <div className="grid justify-items-start">
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="ghost"
            size="sm"
            className={cn('-ml-2 h-7 px-2 tabular-nums', tested ? speedClass(row.response_time) : 'font-normal text-muted-foreground')}
            disabled={test.isPending}
            data-testid={`channel-response-${row.id}`}
            onClick={() => (row.test_model ? test.mutate({ id: row.id }) : open({ kind: 'test', row }))}
          >
            {test.isPending && <Loader2 className="animate-spin" />}
            {tested ? t('seconds', { value: (row.response_time / 1000).toFixed(2) }) : t('untested')}
          </Button>
        </TooltipTrigger>
        <TooltipContent>{row.test_model ? t('clickToTest', { model: row.test_model }) : t('chooseModelToTest')}</TooltipContent>
      </Tooltip>
      {tested && (
        // Month-day and time keep the column narrow; the full time is in the title.
        <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums" title={timestamp2string(row.test_time)}>
          {timestamp2string(row.test_time).slice(5, 16)}
        </span>
      )}
    </div>
  )
}

export function TestTimeCell({ row }: { row: Channel }) {
  const { t } = useTranslation('channels')
  return (
    <span className="block max-w-[6.5rem] text-xs leading-snug whitespace-normal text-muted-foreground tabular-nums">
      {row.test_time > 0 ? timestamp2string(row.test_time) : t('never')}
    </span>
  )
}

export function BalanceCell({ row, refreshable }: { row: Channel; refreshable: boolean }) {
  const { t } = useTranslation('channels')
  const refresh = useRefreshBalance()
  const amount = `$${row.balance.toFixed(2)}`
  if (!refreshable) return <span className="h-7 leading-7 text-muted-foreground tabular-nums">{row.balance_updated_time > 0 ? amount : '—'}</span>
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2 h-7 px-2 tabular-nums"
          disabled={refresh.isPending}
          aria-label={t('refreshBalanceOf', { name: row.name })}
          data-testid={`channel-balance-${row.id}`}
          onClick={() => refresh.mutate(row.id)}
        >
          {refresh.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw className="opacity-50" />}
          {row.balance_updated_time > 0 ? amount : '—'}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{row.balance_updated_time > 0 ? t('balanceUpdatedAt', { time: timestamp2string(row.balance_updated_time) }) : t('clickToRefreshBalance')}</TooltipContent>
    </Tooltip>
  )
}

/** Priority (≥ 0) or weight (≥ 1), saved on Enter or when the field loses focus. */
export function InlineNumberCell({ row, field }: { row: Channel; field: 'priority' | 'weight' }) {
  const { t } = useTranslation('channels')
  const patch = usePatchChannel()
  const current = String(row[field])
  const [text, setText] = useState(current)
  const [seen, setSeen] = useState(current)
  // The list refreshed with a new value: show it.
  if (seen !== current) {
    setSeen(current)
    setText(current)
  }
  const invalid = !inlineNumberValid(field, text)
  const commit = () => {
    if (text.trim() === current) return
    if (invalid) {
      notify.error(t(field === 'weight' ? 'validation.weightMin' : 'validation.priorityMin'))
      setText(current)
      return
    }
    const value = Number(text)
    patch.mutate(field === 'weight' ? { id: row.id, weight: value } : { id: row.id, priority: value }, { onError: () => setText(current) })
  }
  return (
    <Input
      type="number"
      inputMode="numeric"
      min={field === 'weight' ? 1 : 0}
      step={1}
      value={text}
      aria-label={t(field === 'weight' ? 'fields.weight' : 'fields.priority')}
      aria-invalid={invalid}
      data-testid={`channel-${field}-${row.id}`}
      disabled={patch.isPending}
      className="h-8 w-14 px-2 tabular-nums"
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur()
        if (e.key === 'Escape') setText(current)
      }}
    />
  )
}
