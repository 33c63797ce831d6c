/**
 * Mounts every dialog of the users page: create/edit, change quota, the user's subscription plans,
 * and the confirmation of a manage action (enable runs at once and needs none).
 */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { UserSubscriptionsDialog } from '@/features/plans/components/user-subscriptions-dialog'
import { useManageUser } from '../api'
import { UsersMutateDialog } from './users-mutate-dialog'
import { useUsersDialog } from './users-provider'
import { UsersQuotaDialog } from './users-quota-dialog'

export function UsersDialogs() {
  const { t } = useTranslation('users')
  const { dialog, isOpen, seq, close } = useUsersDialog()
  const manage = useManageUser()
  const onOpenChange = (open: boolean) => !open && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <UsersMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <UsersMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'quota':
      return <UsersQuotaDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'subscriptions':
      return <UserSubscriptionsDialog key={seq} open={isOpen} onOpenChange={onOpenChange} user={dialog.row} />
    case 'manage': {
      const { row, action } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => !manage.isPending && onOpenChange(open)}
          title={t(`confirm.${action}.title`)}
          description={t(`confirm.${action}.description`, { name: row.username })}
          confirmText={t(`confirm.${action}.confirm`)}
          destructive={action === 'delete' || action === 'disable'}
          pending={manage.isPending}
          onConfirm={() => manage.mutate({ id: row.id, action }, { onSuccess: close })}
        />
      )
    }
  }
}
