/**
 * Speed test of one channel with a chosen model: the channel's chat models (the server tests
 * chat models only), preselected with its test model. Success shows the seconds taken.
 */
import { useState } from 'react'
import { Loader2, Timer } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useTestChannel } from '../api'
import { isChatModel, splitList } from '../options'
import type { Channel } from '@contract/channels'

interface TestDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  row: Channel
}

export function ChannelsTestDialog({ open, onOpenChange, row }: TestDialogProps) {
  const { t } = useTranslation('channels')
  const test = useTestChannel()
  const models = splitList(row.models).filter(isChatModel)
  const [model, setModel] = useState(row.test_model && models.includes(row.test_model) ? row.test_model : (models[0] ?? ''))
  return (
    <Dialog open={open} onOpenChange={(o) => !test.isPending && onOpenChange(o)}>
      <DialogContent data-testid="channel-test-dialog">
        <DialogHeader>
          <DialogTitle>{t('test.title', { name: row.name })}</DialogTitle>
          <DialogDescription>{t('test.description')}</DialogDescription>
        </DialogHeader>
        {models.length > 0 ? (
          <div className="grid gap-2">
            <Label htmlFor="channel-test-model">{t('test.model')}</Label>
            <Select value={model} onValueChange={setModel}>
              <SelectTrigger id="channel-test-model">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {models.map((m) => (
                  <SelectItem key={m} value={m}>
                    {m}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : (
          <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">{t('test.noChatModels')}</p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={test.isPending}>
            {t('form.cancel')}
          </Button>
          <Button disabled={!model || test.isPending} onClick={() => test.mutate({ id: row.id, model }, { onSuccess: () => onOpenChange(false) })} data-testid="channel-test-run">
            {test.isPending ? <Loader2 className="animate-spin" /> : <Timer />}
            {t('test.run')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
