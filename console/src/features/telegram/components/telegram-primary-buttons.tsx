/** Header buttons of the Telegram page: Reload (push menus and mode to Telegram) and add a menu. */
import { Loader2, Plus, RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useReloadBot } from '../api'
import { useTelegramDialog } from './telegram-provider'

export function TelegramPrimaryButtons() {
  const { t } = useTranslation('telegram')
  const { open } = useTelegramDialog()
  const reload = useReloadBot()
  return (
    <>
      <Button variant="outline" onClick={() => reload.mutate()} disabled={reload.isPending} data-testid="telegram-reload">
        {reload.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw />}
        {t('actions.reload')}
      </Button>
      <Button onClick={() => open({ kind: 'create' })} data-testid="telegram-create">
        <Plus />
        {t('actions.add')}
      </Button>
    </>
  )
}
