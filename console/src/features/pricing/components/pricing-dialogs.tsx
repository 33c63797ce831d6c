/** Mounts the pricing page's dialogs in one place: the open one comes from pricing-provider. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useDeleteGroup, useDeletePrices, type Price } from '../api'
import { GroupMutateDialog } from './group-mutate-dialog'
import { PriceMergedDialog } from './price-merged-dialog'
import { PriceMutateDialog } from './price-mutate-dialog'
import { usePricing } from './pricing-provider'
import { PricingUpdatesDialog } from './pricing-updates-dialog'

const LISTED = 10

export function PricingDialogs({ prices }: { prices: Price[] }) {
  const { t } = useTranslation('pricing')
  const { dialog, isOpen, seq, close } = usePricing()
  const deletePrices = useDeletePrices()
  const deleteGroup = useDeleteGroup()
  if (!dialog) return null
  const onOpenChange = (open: boolean) => {
    if (!open) close()
  }
  switch (dialog.kind) {
    case 'price':
      return <PriceMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} price={dialog.price} model={dialog.model} prices={prices} />
    case 'merged':
      return <PriceMergedDialog key={seq} open={isOpen} onOpenChange={onOpenChange} group={dialog.group} prices={prices} />
    case 'updates':
      return <PricingUpdatesDialog key={seq} open={isOpen} onOpenChange={onOpenChange} prices={prices} />
    case 'group':
      return <GroupMutateDialog key={seq} open={isOpen} onOpenChange={onOpenChange} group={dialog.group} />
    case 'delete-prices': {
      const { models, onDeleted } = dialog
      const listed = models.slice(0, LISTED).join(', ') + (models.length > LISTED ? t('deleteDialog.andMore', { count: models.length - LISTED }) : '')
      return (
        <ConfirmDialog
          key={seq}
          open={isOpen}
          onOpenChange={onOpenChange}
          title={t('deleteDialog.title', { count: models.length })}
          description={t('deleteDialog.description', { count: models.length, models: listed })}
          confirmText={t('actions.deleteConfirm')}
          destructive
          pending={deletePrices.isPending}
          onConfirm={() =>
            deletePrices.mutate(models, {
              onSuccess: () => {
                onDeleted?.()
                close()
              },
            })
          }
        />
      )
    }
    case 'delete-group': {
      const { group } = dialog
      return (
        <ConfirmDialog
          key={seq}
          open={isOpen}
          onOpenChange={onOpenChange}
          title={t('groups.deleteTitle')}
          description={t('groups.deleteDescription', { name: group.name, symbol: group.symbol })}
          confirmText={t('actions.deleteConfirm')}
          destructive
          pending={deleteGroup.isPending}
          onConfirm={() => deleteGroup.mutate(group.id, { onSettled: close })}
        />
      )
    }
  }
}
