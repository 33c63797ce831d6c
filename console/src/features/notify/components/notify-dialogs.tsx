/** Mounts every dialog of the alerts page: create/edit a channel, its delivery log, and the delete confirmation. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useDeleteChannel } from '../api'
import { NotifyChannelDialog } from './notify-channel-dialog'
import { NotifyDeliveries } from './notify-deliveries'
import { useNotifyDialog } from './notify-provider'

export function NotifyDialogs() {
  const { t } = useTranslation('notify')
  const { dialog, isOpen, seq, close } = useNotifyDialog()
  const remove = useDeleteChannel()
  const onOpenChange = (o: boolean) => !o && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <NotifyChannelDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <NotifyChannelDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'deliveries':
      return (
        <Dialog open={isOpen} onOpenChange={onOpenChange}>
          <DialogContent data-testid="notify-deliveries-dialog" className="sm:max-w-3xl">
            <DialogHeader>
              <DialogTitle>{t('deliveries.title', { name: dialog.row.name })}</DialogTitle>
              <DialogDescription>{t('deliveries.description')}</DialogDescription>
            </DialogHeader>
            <NotifyDeliveries channelId={dialog.row.id} />
          </DialogContent>
        </Dialog>
      )
    case 'delete': {
      const { row } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !remove.isPending && onOpenChange(o)}
          title={t('confirm.deleteTitle')}
          description={t('confirm.deleteDescription', { name: row.name })}
          confirmText={t('actions.delete')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(row.id, { onSuccess: close })}
        />
      )
    }
  }
}
