/**
 * What a plan (or a subscription's copied terms) gives: each usage window ("100 requests / day")
 * and each per-model item with its allowance or "not included"; then the group it moves the
 * subscriber to, the channel tags it is limited to, and whether the balance covers what it does not.
 */
import { Check, CircleSlash, Clock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PlanModelItem, PlanWindow } from '@contract/plans'
import { formatModelItem, formatWindow } from '../format'

interface Terms {
  windows: PlanWindow[]
  models: PlanModelItem[]
  group: string
  channel_tags: string[]
  allow_balance_fallback: boolean
}

export function PlanTermsList({ terms }: { terms: Terms }) {
  const { t } = useTranslation('plans')
  const period = terms.windows[0]?.period
  return (
    <div className="grid gap-3 text-sm">
      <ul className="grid gap-1.5" data-testid="plan-windows">
        {terms.windows.length === 0 && <li className="text-muted-foreground">{t('card.noWindows')}</li>}
        {terms.windows.map((w, i) => (
          <li key={i} className="flex items-center gap-2">
            <Clock className="size-4 shrink-0 text-muted-foreground" />
            <span className="tabular-nums">{formatWindow(t, w)}</span>
          </li>
        ))}
      </ul>
      {terms.models.length > 0 && (
        <div className="grid gap-1.5">
          <p className="text-xs font-medium text-muted-foreground uppercase">{t('card.models')}</p>
          <ul className="grid gap-1" data-testid="plan-models">
            {terms.models.map((m, i) => (
              <li key={i} className="flex items-start justify-between gap-3">
                {m.pattern === '*' ? <span className="min-w-0">{t('models.other')}</span> : <code className="min-w-0 font-mono text-xs break-all">{m.pattern}</code>}
                <span className={'excluded' in m ? 'inline-flex shrink-0 items-center gap-1 text-muted-foreground' : 'shrink-0 tabular-nums'}>
                  {'excluded' in m && <CircleSlash className="size-3.5" />}
                  {formatModelItem(t, m, period)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="grid gap-1 text-xs text-muted-foreground">
        {terms.group && (
          <li>
            {t('card.group')} <span className="font-medium text-foreground">{terms.group}</span>
          </li>
        )}
        {terms.channel_tags.length > 0 && <li>{t('card.channelTags', { tags: terms.channel_tags.join(', ') })}</li>}
        <li className="flex items-center gap-1">
          {terms.allow_balance_fallback ? <Check className="size-3.5" /> : <CircleSlash className="size-3.5" />}
          {terms.allow_balance_fallback ? t('card.fallback') : t('card.noFallback')}
        </li>
      </ul>
    </div>
  )
}
