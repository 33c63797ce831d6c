/**
 * /panel/redemption (admin): generate codes in batches (shown
 * once), list and search them, edit, enable/disable and delete.
 */
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { RedemptionsDialogs } from './components/redemptions-dialogs'
import { RedemptionsPrimaryButtons } from './components/redemptions-primary-buttons'
import { RedemptionsProvider } from './components/redemptions-provider'
import { RedemptionsTable } from './components/redemptions-table'

export function Redemptions() {
  const { t } = useTranslation('redemptions')
  return (
    <RedemptionsProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<RedemptionsPrimaryButtons />} />
      <RedemptionsTable />
      <RedemptionsDialogs />
    </RedemptionsProvider>
  )
}
