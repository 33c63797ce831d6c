/** Header button of the redemption page: generate a batch of codes. */
import { TicketPlus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useRedemptionsDialog } from './redemptions-provider'

export function RedemptionsPrimaryButtons() {
  const { t } = useTranslation('redemptions')
  const { open } = useRedemptionsDialog()
  return (
    <Button onClick={() => open({ kind: 'create' })} data-testid="redemption-create">
      <TicketPlus />
      {t('actions.add')}
    </Button>
  )
}
