/**
 * The "…" menu of a redemption code: edit and enable/disable while it is not redeemed (a redeemed
 * code is read-only), delete always. Disable and delete ask for confirmation.
 */
import { Ban, CircleCheck, MoreHorizontal, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { REDEMPTION_STATUS } from '@contract/enums'
import { useUpdateRedemption, type Redemption } from '../api'
import { useRedemptionsDialog } from './redemptions-provider'

export function RedemptionsRowActions({ row }: { row: Redemption }) {
  const { t } = useTranslation('redemptions')
  const { open } = useRedemptionsDialog()
  const update = useUpdateRedemption()
  const redeemed = row.status === REDEMPTION_STATUS.REDEEMED

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={t('actions.menu', { name: row.name })} data-testid={`redemption-actions-${row.id}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-40">
        {!redeemed && (
          <>
            <DropdownMenuItem onSelect={() => open({ kind: 'edit', row })}>
              <Pencil />
              {t('actions.edit')}
            </DropdownMenuItem>
            {row.status === REDEMPTION_STATUS.DISABLED ? (
              <DropdownMenuItem disabled={update.isPending} onSelect={() => update.mutate({ id: row.id, name: row.name, quota: row.quota, status: 1 })}>
                <CircleCheck />
                {t('actions.enable')}
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem onSelect={() => open({ kind: 'disable', row })}>
                <Ban />
                {t('actions.disable')}
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
          </>
        )}
        <DropdownMenuItem variant="destructive" onSelect={() => open({ kind: 'delete', row })}>
          <Trash2 />
          {t('actions.delete')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
