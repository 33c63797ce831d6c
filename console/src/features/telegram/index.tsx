/**
 * /panel/telegram (admin): the bot's status, the custom
 * menus with create/edit/delete, and Reload — menu changes reach the bot only after a reload.
 */
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { TelegramDialogs } from './components/telegram-dialogs'
import { TelegramPrimaryButtons } from './components/telegram-primary-buttons'
import { TelegramProvider } from './components/telegram-provider'
import { TelegramStatusCard } from './components/telegram-status-card'
import { TelegramTable } from './components/telegram-table'

export function Telegram() {
  const { t } = useTranslation('telegram')
  return (
    <TelegramProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<TelegramPrimaryButtons />} />
      <TelegramStatusCard />
      <h2 className="mb-3 text-lg font-semibold">{t('menusTitle')}</h2>
      <TelegramTable />
      <TelegramDialogs />
    </TelegramProvider>
  )
}
