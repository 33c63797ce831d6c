/**
 * /panel/notify (root; Settings → Alerts in the menu): where the gateway's alerts go — channels
 * (webhook, Slack, Feishu/Lark, DingTalk, WeCom, Telegram, email) with the events each receives,
 * a "send test" per channel and each channel's delivery log.
 */
import { Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Button } from '@/components/ui/button'
import { NotifyDialogs } from './components/notify-dialogs'
import { NotifyProvider, useNotifyDialog } from './components/notify-provider'
import { NotifyChannelsTable } from './components/notify-channels-table'

function AddButton() {
  const { t } = useTranslation('notify')
  const { open } = useNotifyDialog()
  return (
    <Button onClick={() => open({ kind: 'create' })} data-testid="notify-create">
      <Plus />
      {t('actions.add')}
    </Button>
  )
}

export function Notify() {
  const { t } = useTranslation('notify')
  return (
    <NotifyProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<AddButton />} />
      <NotifyChannelsTable />
      <NotifyDialogs />
    </NotifyProvider>
  )
}
