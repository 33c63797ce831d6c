/**
 * One audit row's field diff, readable: each field with its old value struck through and the new
 * one beside it; a secret shows only whether it changed.
 */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import type { AuditChange } from '../api'

const text = (v: unknown) => (v === undefined || v === null || v === '' ? '∅' : typeof v === 'string' ? v : JSON.stringify(v))

function Change({ change }: { change: AuditChange }) {
  const { t } = useTranslation('audit')
  if (change === 'changed' || change === 'unchanged')
    return (
      <Badge variant={change === 'changed' ? 'secondary' : 'outline'} className="font-normal">
        {t(`secret.${change}`)}
      </Badge>
    )
  return (
    <span className="break-all">
      {'from' in change && <span className="text-muted-foreground line-through decoration-destructive/60">{text(change.from)}</span>}
      {'from' in change && 'to' in change && <span className="px-1 text-muted-foreground">→</span>}
      {'to' in change && <span className="font-medium">{text(change.to)}</span>}
    </span>
  )
}

export function AuditDiff({ diff, limit }: { diff: Record<string, AuditChange>; limit?: number }) {
  const { t } = useTranslation('audit')
  const entries = Object.entries(diff)
  if (entries.length === 0) return <span className="text-muted-foreground">{t('diff.none')}</span>
  const shown = limit === undefined ? entries : entries.slice(0, limit)
  return (
    <dl className="grid gap-1 text-xs" data-testid="audit-diff">
      {shown.map(([field, change]) => (
        <div key={field} className="grid grid-cols-[minmax(5rem,auto)_1fr] gap-2">
          <dt className="font-mono text-muted-foreground">{field}</dt>
          <dd>
            <Change change={change} />
          </dd>
        </div>
      ))}
      {shown.length < entries.length && <p className="text-muted-foreground">{t('diff.more', { count: entries.length - shown.length })}</p>}
    </dl>
  )
}
