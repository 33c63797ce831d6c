/**
 * The by-tag view's actions on the chosen tag, one-hub's tag operations: set the priority or the
 * weight of every channel in it, enable or disable them all, delete them all. Each asks first
 * (naming the tag and how many channels it holds); priority and weight take their value there.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ArrowUpDown, Power, PowerOff, Scale, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { channelsQueryOptions, useTagOperation, type TagOperation } from '../api'

type Kind = TagOperation['kind']

const ACTIONS: { kind: Kind; icon: typeof Power }[] = [
  { kind: 'priority', icon: ArrowUpDown },
  { kind: 'weight', icon: Scale },
  { kind: 'enable', icon: Power },
  { kind: 'disable', icon: PowerOff },
  { kind: 'delete', icon: Trash2 },
]

export function ChannelsTagActions({ tag }: { tag: string }) {
  const { t } = useTranslation('channels')
  const count = useQuery(channelsQueryOptions({ tag, page_size: 1 })).data?.total_count
  const operate = useTagOperation(tag)
  const [kind, setKind] = useState<Kind | null>(null)
  const [value, setValue] = useState('')
  const numeric = kind === 'priority' || kind === 'weight'
  const min = kind === 'weight' ? 1 : 0
  const valid = !numeric || (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= 1_000_000)

  const open = (k: Kind) => {
    setValue(k === 'weight' ? '1' : k === 'priority' ? '0' : '')
    setKind(k)
  }
  const confirm = () => {
    if (!kind || !valid) return
    const op: TagOperation = kind === 'priority' || kind === 'weight' ? { kind, value: Number(value) } : { kind }
    operate.mutate(op, { onSuccess: () => setKind(null) })
  }

  return (
    <div className="flex flex-wrap items-center gap-2 pb-3" data-testid="channel-tag-actions">
      <span className="text-sm text-muted-foreground">{t('tagOps.label', { tag, count: count ?? 0 })}</span>
      {ACTIONS.map(({ kind: k, icon: Icon }) => (
        <Button key={k} size="sm" variant={k === 'delete' ? 'destructive' : 'outline'} onClick={() => open(k)} data-testid={`tag-op-${k}`}>
          <Icon />
          {t(`tagOps.actions.${k}`)}
        </Button>
      ))}
      <ConfirmDialog
        open={kind !== null}
        onOpenChange={(o) => !o && !operate.isPending && setKind(null)}
        title={kind ? t(`tagOps.confirm.${kind}`, { tag, count: count ?? 0 }) : ''}
        description={
          numeric ? (
            <span className="grid gap-2">
              {t('tagOps.valueHint', { min })}
              <Input
                type="number"
                inputMode="numeric"
                min={min}
                max={1_000_000}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                aria-label={kind ? t(`tagOps.actions.${kind}`) : undefined}
                aria-invalid={!valid}
                data-testid="tag-op-value"
              />
            </span>
          ) : (
            t('tagOps.audit')
          )
        }
        confirmText={kind ? t(`tagOps.actions.${kind}`) : undefined}
        destructive={kind === 'delete' || kind === 'disable'}
        pending={operate.isPending || !valid}
        onConfirm={confirm}
      />
    </div>
  )
}
