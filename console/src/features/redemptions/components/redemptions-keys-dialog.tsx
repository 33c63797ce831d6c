/**
 * The codes of a batch just created — shown this one time only (the server keeps only their
 * hashes): each with a copy button, a copy-all button, and a warning to save them now.
 */
import { Copy, CopyCheck, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { copyText } from '@/lib/clipboard'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  keys: string[]
  name: string
}

export function RedemptionsKeysDialog({ open, onOpenChange, keys, name }: Props) {
  const { t } = useTranslation('redemptions')
  const [copied, setCopied] = useState<Set<number>>(new Set())
  const copyOne = async (i: number) => {
    if (await copyText(keys[i]!)) setCopied((s) => new Set(s).add(i))
  }
  const copyAll = async () => {
    if (await copyText(keys.join('\n'))) setCopied(new Set(keys.map((_, i) => i)))
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" data-testid="redemption-keys-dialog" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{t('keys.title', { count: keys.length })}</DialogTitle>
          <DialogDescription>{t('keys.description', { name })}</DialogDescription>
        </DialogHeader>
        <Alert variant="warning">
          <TriangleAlert />
          <AlertTitle>{t('keys.warningTitle')}</AlertTitle>
          <AlertDescription>{t('keys.warning')}</AlertDescription>
        </Alert>
        <ul className="grid max-h-72 gap-1.5 overflow-y-auto rounded-md border bg-muted/40 p-2" data-testid="redemption-keys">
          {keys.map((key, i) => (
            <li key={key} className="flex items-center gap-2 rounded-sm bg-background px-2 py-1.5">
              <code className="min-w-0 flex-1 truncate font-mono text-xs sm:text-sm" data-testid="redemption-key">
                {key}
              </code>
              <Tooltip>
                <TooltipTrigger asChild>
                  <Button variant="ghost" size="icon" className="size-7 shrink-0" aria-label={t('keys.copyOne', { index: i + 1 })} onClick={() => void copyOne(i)}>
                    {copied.has(i) ? <CopyCheck className="text-success" /> : <Copy />}
                  </Button>
                </TooltipTrigger>
                <TooltipContent>{t('keys.copy')}</TooltipContent>
              </Tooltip>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('keys.done')}
          </Button>
          <Button onClick={() => void copyAll()} data-testid="redemption-copy-all">
            <Copy />
            {t('keys.copyAll')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
