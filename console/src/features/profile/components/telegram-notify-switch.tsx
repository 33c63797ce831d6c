/** Under a bound Telegram row: the user's switch for notices in the chat (low balance, payments, finished tasks). */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { telegramBindingQueryOptions, useTelegramNotify } from '../api'

export function TelegramNotifySwitch() {
  const { t } = useTranslation('profile')
  const { data } = useQuery(telegramBindingQueryOptions)
  const toggle = useTelegramNotify()
  return (
    <div className="mt-3 flex items-start justify-between gap-4 rounded-lg border p-3">
      <div className="grid gap-1">
        <Label htmlFor="telegram-notify">{t('telegram.notify')}</Label>
        <p className="text-xs text-muted-foreground">{t('telegram.notifyHint')}</p>
      </div>
      <Switch
        id="telegram-notify"
        data-testid="telegram-notify"
        checked={data?.notify ?? false}
        disabled={!data || toggle.isPending}
        onCheckedChange={(checked) => toggle.mutate(checked)}
      />
    </div>
  )
}
