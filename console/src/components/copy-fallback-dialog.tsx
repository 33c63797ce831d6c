/** Shown when the browser refuses clipboard access: the text, selected, to copy by hand. */
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { manualCopy } from '@/lib/clipboard'

export function CopyFallbackDialog() {
  const { t } = useTranslation()
  const text = useSyncExternalStore(manualCopy.subscribe, manualCopy.get)
  return (
    <Dialog open={text !== null} onOpenChange={(open) => !open && manualCopy.set(null)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('copy.manualTitle')}</DialogTitle>
          <DialogDescription>{t('copy.manualDescription')}</DialogDescription>
        </DialogHeader>
        <textarea
          readOnly
          value={text ?? ''}
          onFocus={(e) => e.currentTarget.select()}
          autoFocus
          rows={3}
          data-testid="manual-copy-text"
          className="w-full resize-none rounded-md border bg-muted p-3 font-mono text-sm break-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        />
        <DialogFooter>
          <Button onClick={() => manualCopy.set(null)}>{t('actions.close')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
