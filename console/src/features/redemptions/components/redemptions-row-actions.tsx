/**
 * The "…" menu of a redemption code: edit and enable/disable while it is not redeemed (a redeemed
 * code is read-only), delete always. Disable and delete ask for confirmation.
 */
import { Ban, CircleCheck, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { RowAction, RowActionsMenu } from '@/components/row-actions-menu'
import { DropdownMenuSeparator } from '@/components/ui/dropdown-menu'
import { REDEMPTION_STATUS } from '@contract/enums'
import { useUpdateRedemption, type Redemption } from '../api'
import { useRedemptionsDialog } from './redemptions-provider'

export function RedemptionsRowActions({ row }: { row: Redemption }) {
  const { t } = useTranslation('redemptions')
  const { open } = useRedemptionsDialog()
  const update = useUpdateRedemption()
  const redeemed = row.status === REDEMPTION_STATUS.REDEEMED

  return (
    <RowActionsMenu label={t('actions.menu', { name: row.name })} testId={`redemption-actions-${row.id}`} className="w-40">
      {!redeemed && (
        <>
          <RowAction icon={Pencil} label={t('actions.edit')} onSelect={() => open({ kind: 'edit', row })} />
          {row.status === REDEMPTION_STATUS.DISABLED ? (
            <RowAction
              icon={CircleCheck}
              label={t('actions.enable')}
              disabled={update.isPending}
              onSelect={() => update.mutate({ id: row.id, name: row.name, quota: row.quota, status: 1 })}
            />
          ) : (
            <RowAction icon={Ban} label={t('actions.disable')} onSelect={() => open({ kind: 'disable', row })} />
          )}
          <DropdownMenuSeparator />
        </>
      )}
      <RowAction icon={Trash2} label={t('actions.delete')} destructive onSelect={() => open({ kind: 'delete', row })} />
    </RowActionsMenu>
  )
}
