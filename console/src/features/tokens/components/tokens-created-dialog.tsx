/** Shown right after a key is created: the full key with a copy button. */
import { Check, Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { copyText } from '@/lib/clipboard'
import type { Token } from '../api'

export function TokensCreatedDialog({ open, onOpenChange, row }: { open: boolean; onOpenChange: (open: boolean) => void; row: Token }) {
  const { t } = useTranslation('tokens')
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="token-created-dialog">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Check className="size-5 text-success" />
            {t('created.title')}
          </DialogTitle>
          <DialogDescription>{t('created.description', { name: row.name })}</DialogDescription>
        </DialogHeader>
        <div className="flex gap-2">
          <Input readOnly value={row.key} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" aria-label={t('fields.key')} data-testid="token-created-key" />
          <Button onClick={() => void copyText(row.key)} data-testid="token-created-copy">
            <Copy />
            {t('actions.copy')}
          </Button>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('created.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
