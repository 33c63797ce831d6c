/**
 * The collapsible "how routing works" panel of the channels page: priority tiers, weighted
 * sharing, retries and cooldown, automatic disable/enable (one-hub explains the same inline).
 */
import { useState } from 'react'
import { ChevronDown, Info } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible'
import { cn } from '@/lib/utils'

const POINTS = ['priority', 'weight', 'retry', 'autoDisable'] as const

export function ChannelsHelp() {
  const { t } = useTranslation('channels')
  const [open, setOpen] = useState(false)
  return (
    <Collapsible open={open} onOpenChange={setOpen} className="mb-4 rounded-lg border bg-card">
      <CollapsibleTrigger className="flex w-full items-center gap-2 px-4 py-3 text-left text-sm font-medium">
        <Info className="size-4 text-primary" />
        <span className="flex-1">{t('help.title')}</span>
        <ChevronDown className={cn('size-4 text-muted-foreground transition-transform', open && 'rotate-180')} />
      </CollapsibleTrigger>
      <CollapsibleContent>
        <ul className="grid gap-3 border-t px-4 py-3 text-sm text-muted-foreground md:grid-cols-2">
          {POINTS.map((p) => (
            <li key={p}>
              <span className="font-medium text-foreground">{t(`help.${p}.title`)}</span> {t(`help.${p}.body`)}
            </li>
          ))}
        </ul>
      </CollapsibleContent>
    </Collapsible>
  )
}
