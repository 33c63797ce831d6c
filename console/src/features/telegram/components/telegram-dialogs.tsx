/** Mounts every dialog of the Telegram page: create/edit a menu and the delete confirmation. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useDeleteMenu } from '../api'
import { TelegramMenuDialog } from './telegram-menu-dialog'
import { useTelegramDialog } from './telegram-provider'

export function TelegramDialogs() {
  const { t } = useTranslation('telegram')
  const { dialog, isOpen, seq, close } = useTelegramDialog()
  const remove = useDeleteMenu()
  const onOpenChange = (o: boolean) => !o && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <TelegramMenuDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <TelegramMenuDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'delete': {
      const { row } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !remove.isPending && onOpenChange(o)}
          title={t('confirm.deleteTitle')}
          description={t('confirm.deleteDescription', { command: row.command })}
          confirmText={t('actions.delete')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(row.id, { onSuccess: close })}
        />
      )
    }
  }
}
