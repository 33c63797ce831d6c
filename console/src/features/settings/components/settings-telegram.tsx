/**
 * System → Telegram bot: switch, bot token (write-only), mode — webhook (Telegram calls this
 * gateway at /api/telegram/webhook with the secret token) or polling (a Durable Object alarm asks
 * Telegram for updates; for installs without a public URL) —, the webhook secret (write-only,
 * generated at the first reload when left empty) and the Bot API base URL. Changes apply when the
 * admin presses Reload on /panel/telegram, which the card links to.
 */
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { OptionMap } from '../api'
import { urlText } from '../schema'
import { isConfigured, optionValue, plainCodec, trimUrl } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, FieldMessage, TextField } from './settings-fields'
import { SecretField } from './settings-secret-field'
import { SettingsSection } from './settings-section'
import { siteUrl } from '@/lib/base-path'

const telegramSchema = z.object({
  TelegramBotEnabled: z.boolean(),
  TelegramBotToken: z.string(),
  TelegramMode: z.enum(['webhook', 'polling']),
  TelegramWebhookSecret: z.string().refine((v) => /^[A-Za-z0-9_-]{0,256}$/.test(v), 'settings:validation.telegramSecret'),
  TelegramApiBase: urlText.refine((v) => v !== '', 'settings:validation.required'),
})
const telegramCodec = plainCodec(telegramSchema, { stripSlash: ['TelegramApiBase'] })

export function TelegramSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  const webhook = `${trimUrl(optionValue(options, 'ServerAddress')) || siteUrl()}/api/telegram/webhook`
  return (
    <SettingsSection
      id="telegram"
      title={t('sections.telegram.title')}
      description={t('sections.telegram.description')}
      options={options}
      schema={telegramSchema}
      {...telegramCodec}
      footnote={
        <p className="text-xs text-muted-foreground">
          {t('telegram.applyHint', { url: webhook })}{' '}
          <Link to="/panel/telegram" className="font-medium text-foreground underline underline-offset-4">
            {t('telegram.openPage')}
          </Link>
        </p>
      }
    >
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <SwitchField control={form.control} name="TelegramBotEnabled" label={t('fields.TelegramBotEnabled.label')} description={t('fields.TelegramBotEnabled.help')} />
          <FormField
            control={form.control}
            name="TelegramMode"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.TelegramMode.label')}</FormLabel>
                <Select value={field.value} onValueChange={field.onChange}>
                  <FormControl>
                    <SelectTrigger name="TelegramMode" className="w-full" data-testid="telegram-mode-select">
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    <SelectItem value="webhook">{t('fields.TelegramMode.webhook')}</SelectItem>
                    <SelectItem value="polling">{t('fields.TelegramMode.polling')}</SelectItem>
                  </SelectContent>
                </Select>
                <FormDescription className="text-xs">{t('fields.TelegramMode.help')}</FormDescription>
                <FieldMessage />
              </FormItem>
            )}
          />
          <SecretField
            control={form.control}
            name="TelegramBotToken"
            label={t('fields.TelegramBotToken.label')}
            description={t('fields.TelegramBotToken.help')}
            configured={isConfigured(options, 'TelegramBotToken')}
          />
          <SecretField
            control={form.control}
            name="TelegramWebhookSecret"
            label={t('fields.TelegramWebhookSecret.label')}
            description={t('fields.TelegramWebhookSecret.help')}
            configured={isConfigured(options, 'TelegramWebhookSecret')}
          />
          <TextField
            control={form.control}
            name="TelegramApiBase"
            label={t('fields.TelegramApiBase.label')}
            description={t('fields.TelegramApiBase.help')}
            placeholder="https://api.telegram.org"
            inputMode="url"
            mono
          />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}
