/**
 * Header buttons of the channels page: create, test all channels, refresh all balances (only when
 * the server offers balance refreshes) and delete every disabled channel (confirmed first).
 */
import { useQuery } from '@tanstack/react-query'
import { Loader2, Plus, RefreshCw, Timer, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { balanceSupportQueryOptions, useRefreshAllBalances, useTestAllChannels } from '../api'
import { useChannelsDialog } from './channels-provider'

export function ChannelsPrimaryButtons() {
  const { t } = useTranslation('channels')
  const { open } = useChannelsDialog()
  const testAll = useTestAllChannels()
  const refreshAll = useRefreshAllBalances()
  const balanceSupported = useQuery(balanceSupportQueryOptions).data ?? false
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="outline" disabled={testAll.isPending} onClick={() => testAll.mutate()}>
        {testAll.isPending ? <Loader2 className="animate-spin" /> : <Timer />}
        {t('actions.testAll')}
      </Button>
      {balanceSupported && (
        <Button variant="outline" disabled={refreshAll.isPending} onClick={() => refreshAll.mutate()}>
          {refreshAll.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw />}
          {t('actions.refreshBalances')}
        </Button>
      )}
      <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => open({ kind: 'deleteDisabled' })}>
        <Trash2 />
        {t('actions.deleteDisabled')}
      </Button>
      <Button onClick={() => open({ kind: 'create' })} data-testid="channel-create">
        <Plus />
        {t('actions.create')}
      </Button>
    </div>
  )
}
