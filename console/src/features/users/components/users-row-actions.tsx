/**
 * The "…" menu of a user row: edit, change quota, then the manage actions the signed-in admin is
 * allowed (see options.ts). Rows the admin cannot touch show no menu at all.
 */
import { BadgeDollarSign, Ban, CircleCheck, MoreHorizontal, Pencil, ShieldMinus, ShieldPlus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { useAuthUser } from '@/stores/auth-store'
import { useManageUser, type AdminUser, type ManageAction } from '../api'
import { canManage, manageActions } from '../options'
import { useUsersDialog } from './users-provider'

const ICONS: Record<ManageAction, typeof Ban> = {
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

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={t('actions.menu', { name: row.username })} data-testid={`user-actions-${row.id}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-44">
        <DropdownMenuItem onSelect={() => open({ kind: 'edit', row })}>
          <Pencil />
          {t('actions.edit')}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => open({ kind: 'quota', row })}>
          <BadgeDollarSign />
          {t('actions.quota')}
        </DropdownMenuItem>
        {actions.length > 0 && <DropdownMenuSeparator />}
        {actions.map((action) => {
          const Icon = ICONS[action]
          return (
            <DropdownMenuItem
              key={action}
              variant={action === 'delete' ? 'destructive' : 'default'}
              disabled={manage.isPending}
              onSelect={() => (action === 'enable' ? manage.mutate({ id: row.id, action }) : open({ kind: 'manage', row, action }))}
            >
              <Icon />
              {t(`actions.${action}`)}
            </DropdownMenuItem>
          )
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
