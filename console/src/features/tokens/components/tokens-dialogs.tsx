/** Mounts every dialog of the tokens page: create/edit, the new-key dialog, and the delete confirmation. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useAuthUser } from '@/stores/auth-store'
import { useDeleteToken } from '../api'
import { TokensCreatedDialog } from './tokens-created-dialog'
import { TokensMutateDialog } from './tokens-mutate-dialog'
import { useTokensDialog } from './tokens-provider'

export function TokensDialogs() {
  const { t } = useTranslation('tokens')
  const { dialog, isOpen, seq, close, admin } = useTokensDialog()
  const me = useAuthUser()
  const asAdmin = admin && dialog?.kind === 'delete' && dialog.row.user_id !== me?.id
  const remove = useDeleteToken(asAdmin)
  const onOpenChange = (open: boolean) => !open && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <TokensMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <TokensMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'created':
      return <TokensCreatedDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'delete':
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => !remove.isPending && onOpenChange(open)}
          title={t('confirm.title')}
          description={t('confirm.description', { name: dialog.row.name })}
          confirmText={t('confirm.confirm')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(dialog.row.id, { onSuccess: close })}
        />
      )
  }
}
