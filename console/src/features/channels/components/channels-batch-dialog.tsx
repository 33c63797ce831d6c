/**
 * Batch edit of the selected channels with one value: remove a model from all of them
 * (PUT /api/channel/batch/del_model) or set the Azure API version of the Azure ones among them
 * (PUT /api/channel/batch/azure_api). Both change many channels, so the dialog says how many.
 */
import { useState } from 'react'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useBatchEditChannels } from '../api'

interface BatchDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  kind: 'del_model' | 'azure_api'
  ids: number[]
  onDone: () => void
}

export function ChannelsBatchDialog({ open, onOpenChange, kind, ids, onDone }: BatchDialogProps) {
  const { t } = useTranslation('channels')
  const edit = useBatchEditChannels(kind)
  const [value, setValue] = useState('')
  const [touched, setTouched] = useState(false)
  const prefix = kind === 'del_model' ? 'bulk.delModelDialog' : 'bulk.azureDialog'
  const invalid = value.trim() === ''
  const submit = () => {
    setTouched(true)
    if (invalid) return
    edit.mutate({ ids, value: value.trim() }, { onSuccess: onDone })
  }
  return (
    <Dialog open={open} onOpenChange={(o) => !edit.isPending && onOpenChange(o)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t(`${prefix}.title`)}</DialogTitle>
          <DialogDescription>{t(`${prefix}.description`, { count: ids.length })}</DialogDescription>
        </DialogHeader>
        <form
          id="channel-batch-form"
          className="grid gap-2"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          <Label htmlFor="channel-batch-value">{t(`${prefix}.label`)}</Label>
          <Input
            id="channel-batch-value"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder={t(`${prefix}.placeholder`)}
            aria-invalid={touched && invalid}
            autoFocus
          />
          {touched && invalid && <p className="text-sm text-destructive">{t('validation.valueRequired')}</p>}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={edit.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" form="channel-batch-form" variant={kind === 'del_model' ? 'destructive' : 'default'} disabled={edit.isPending}>
            {edit.isPending && <Loader2 className="animate-spin" />}
            {t(`${prefix}.confirm`)}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
