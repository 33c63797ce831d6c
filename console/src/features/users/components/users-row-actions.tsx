/**
 * The "…" menu of a user row: edit, change quota, subscription plans, then the manage actions the signed-in admin is
 * allowed (see options.ts). Rows the admin cannot touch show no menu at all.
 */
import { BadgeDollarSign, Ban, CalendarClock, CircleCheck, Pencil, ShieldMinus, ShieldPlus, Trash2, type LucideIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { RowAction, RowActionsMenu } from '@/components/row-actions-menu'
import { DropdownMenuSeparator } from '@/components/ui/dropdown-menu'
import { useAuthUser } from '@/stores/auth-store'
import { ROLE } from '@contract/enums'
import type { ManageAction } from '@contract/users'
import { useManageUser } from '../api'
import { canManage, manageActions } from '../options'
import { useUsersDialog } from './users-provider'
import type { AdminUser } from '@contract/users'

const ICONS: Record<ManageAction, LucideIcon> = {
  enable: CircleCheck,
  disable: Ban,
  promote: ShieldPlus,
  demote: ShieldMinus,
  delete: Trash2,
}

export function UsersRowActions({ row }: { row: AdminUser }) {
  const { t } = useTranslation('users')
  const me = useAuthUser()
  const { open } = useUsersDialog()
  const manage = useManageUser()
  if (!me || !canManage(me, row)) return <span className="sr-only">{t('actions.none')}</span>
  const actions = manageActions(me, row)
  // The server refuses an admin's plan grants, extensions and refunds on their own account.
  const plans = me.id !== row.id || me.role >= ROLE.ROOT

  return (
    <RowActionsMenu label={t('actions.menu', { name: row.username })} testId={`user-actions-${row.id}`} className="w-44">
      <RowAction icon={Pencil} label={t('actions.edit')} onSelect={() => open({ kind: 'edit', row })} />
      <RowAction icon={BadgeDollarSign} label={t('actions.quota')} onSelect={() => open({ kind: 'quota', row })} />
      {plans && <RowAction icon={CalendarClock} label={t('actions.subscriptions')} onSelect={() => open({ kind: 'subscriptions', row })} />}
      {actions.length > 0 && <DropdownMenuSeparator />}
      {actions.map((action) => (
        <RowAction
          key={action}
          icon={ICONS[action]}
          label={t(`actions.${action}`)}
          destructive={action === 'delete'}
          disabled={manage.isPending}
          onSelect={() => (action === 'enable' ? manage.mutate({ id: row.id, action }) : open({ kind: 'manage', row, action }))}
        />
      ))}
    </RowActionsMenu>
  )
}
