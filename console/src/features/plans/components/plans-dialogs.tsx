/** Mounts every dialog of the plan admin page: create/edit, grant to a user, and the delete confirmation. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useDeletePlan } from '../api'
import { GrantDialog } from './grant-dialog'
import { PlanDialog } from './plan-dialog'
import { usePlansDialog } from './plans-provider'

export function PlansDialogs() {
  const { t } = useTranslation('plans')
  const { dialog, isOpen, seq, close } = usePlansDialog()
  const remove = useDeletePlan()
  const onOpenChange = (o: boolean) => !o && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <PlanDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <PlanDialog key={seq} open={isOpen} onOpenChange={onOpenChange} plan={dialog.plan} />
    case 'grant':
      return <GrantDialog key={seq} open={isOpen} onOpenChange={onOpenChange} plan={dialog.plan} />
    case 'delete': {
      const { plan } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !remove.isPending && onOpenChange(o)}
          title={t('confirm.deleteTitle')}
          description={t('confirm.deleteDescription', { name: plan.name })}
          confirmText={t('actions.delete')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(plan.id, { onSuccess: close })}
        />
      )
    }
  }
}
