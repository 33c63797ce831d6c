/**
 * /panel/plan-admin (admin): every subscription plan in a table — create and edit in a dialog
 * (windows, model items, group, channel tags, limits), publish with a switch, delete after a
 * confirmation — and grant a plan to a user without payment.
 */
import { Gift, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Button } from '@/components/ui/button'
import { PlansDialogs } from './components/plans-dialogs'
import { PlansProvider, usePlansDialog } from './components/plans-provider'
import { PlansTable } from './components/plans-table'

function PrimaryButtons() {
  const { t } = useTranslation('plans')
  const { open } = usePlansDialog()
  return (
    <>
      <Button variant="outline" onClick={() => open({ kind: 'grant' })} data-testid="plan-grant">
        <Gift />
        {t('actions.grant')}
      </Button>
      <Button onClick={() => open({ kind: 'create' })} data-testid="plan-create">
        <Plus />
        {t('actions.add')}
      </Button>
    </>
  )
}

export function PlanAdmin() {
  const { t } = useTranslation('plans')
  return (
    <PlansProvider>
      <PageHeader title={t('admin.title')} description={t('admin.description')} actions={<PrimaryButtons />} />
      <PlansTable />
      <PlansDialogs />
    </PlansProvider>
  )
}
