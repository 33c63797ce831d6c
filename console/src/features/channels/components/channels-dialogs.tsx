/**
 * Mounts every dialog of the channels page: the create/edit sheet, the speed test, the batch
 * value dialogs, and the confirmations of the destructive actions (delete one, delete the
 * selected, delete every disabled channel).
 */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useBatchDeleteChannels, useDeleteChannel, useDeleteDisabledChannels } from '../api'
import { ChannelsBatchDialog } from './channels-batch-dialog'
import { ChannelsMutateSheet } from './channels-mutate-sheet'
import { useChannelsDialog } from './channels-provider'
import { ChannelsTestDialog } from './channels-test-dialog'

export function ChannelsDialogs() {
  const { t } = useTranslation('channels')
  const { dialog, isOpen, seq, close, clearSelection } = useChannelsDialog()
  const remove = useDeleteChannel()
  const removeMany = useBatchDeleteChannels()
  const removeDisabled = useDeleteDisabledChannels()
  const onOpenChange = (open: boolean) => !open && close()
  if (!dialog) return null
  const afterBatch = () => {
    clearSelection()
    close()
  }

  switch (dialog.kind) {
    case 'create':
      return <ChannelsMutateSheet key={seq} open={isOpen} onOpenChange={onOpenChange} preset={dialog.preset} />
    case 'edit':
      return <ChannelsMutateSheet key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'test':
      return <ChannelsTestDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'delModel':
      return <ChannelsBatchDialog key={seq} open={isOpen} onOpenChange={onOpenChange} kind="del_model" ids={dialog.ids} onDone={afterBatch} />
    case 'azure':
      return <ChannelsBatchDialog key={seq} open={isOpen} onOpenChange={onOpenChange} kind="azure_api" ids={dialog.ids} onDone={afterBatch} />
    case 'delete':
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => !remove.isPending && onOpenChange(open)}
          title={t('confirm.delete.title')}
          description={t('confirm.delete.description', { name: dialog.row.name })}
          confirmText={t('confirm.delete.confirm')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(dialog.row.id, { onSuccess: close })}
        />
      )
    case 'batchDelete':
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => !removeMany.isPending && onOpenChange(open)}
          title={t('confirm.batchDelete.title')}
          description={t('confirm.batchDelete.description', { count: dialog.ids.length })}
          confirmText={t('confirm.batchDelete.confirm')}
          destructive
          pending={removeMany.isPending}
          onConfirm={() => removeMany.mutate(dialog.ids, { onSuccess: afterBatch })}
        />
      )
    case 'deleteDisabled':
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => !removeDisabled.isPending && onOpenChange(open)}
          title={t('confirm.deleteDisabled.title')}
          description={t('confirm.deleteDisabled.description')}
          confirmText={t('confirm.deleteDisabled.confirm')}
          destructive
          pending={removeDisabled.isPending}
          onConfirm={() => removeDisabled.mutate(undefined, { onSuccess: close })}
        />
      )
  }
}
