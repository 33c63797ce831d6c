/** Mounts every dialog of the redemption page: create/edit, the one-time codes, disable and delete confirmations. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useDeleteRedemption, useUpdateRedemption } from '../api'
import { RedemptionsKeysDialog } from './redemptions-keys-dialog'
import { RedemptionsMutateDialog } from './redemptions-mutate-dialog'
import { useRedemptionsDialog } from './redemptions-provider'

export function RedemptionsDialogs() {
  const { t } = useTranslation('redemptions')
  const { dialog, isOpen, seq, open, close } = useRedemptionsDialog()
  const update = useUpdateRedemption()
  const remove = useDeleteRedemption()
  const onOpenChange = (o: boolean) => !o && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <RedemptionsMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} onCreated={(keys, name) => open({ kind: 'keys', keys, name })} />
    case 'edit':
      return <RedemptionsMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} onCreated={() => {}} />
    case 'keys':
      return <RedemptionsKeysDialog key={seq} open={isOpen} onOpenChange={onOpenChange} keys={dialog.keys} name={dialog.name} />
    case 'disable': {
      const { row } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !update.isPending && onOpenChange(o)}
          title={t('confirm.disable.title')}
          description={t('confirm.disable.description', { name: row.name, id: row.id })}
          confirmText={t('confirm.disable.confirm')}
          destructive
          pending={update.isPending}
          onConfirm={() => update.mutate({ id: row.id, name: row.name, quota: row.quota, status: 2 }, { onSuccess: close })}
        />
      )
    }
    case 'delete': {
      const { row } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !remove.isPending && onOpenChange(o)}
          title={t('confirm.delete.title')}
          description={t('confirm.delete.description', { name: row.name, id: row.id })}
          confirmText={t('confirm.delete.confirm')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(row.id, { onSuccess: close })}
        />
      )
    }
  }
}
