/**
 * Operation → Other: the response cache for identical chat requests and its expiry, the proxy
 * used to fetch images in chat requests, the Cloudflare Worker image proxy (URL + secret key),
 * Midjourney callback notifications, how Midjourney images reach clients (MjImageProxy: upstream
 * links, gateway-signed links or the Worker image proxy) and the fast → relax fallback.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { OptionMap } from '../api'
import { numberText, proxyText, urlText } from '../schema'
import { isConfigured, plainCodec } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, FieldMessage, NumberField, TextField } from './settings-fields'
import { SecretField } from './settings-secret-field'
import { SettingsSection } from './settings-section'

const schema = z.object({
  ChatCacheEnabled: z.boolean(),
  ChatCacheExpireMinute: numberText('ChatCacheExpireMinute'),
  ChatCacheHitRatio: numberText('ChatCacheHitRatio'),
  ChatImageRequestProxy: proxyText,
  CFWorkerImageUrl: urlText,
  CFWorkerImageKey: z.string(),
  MjNotifyEnabled: z.boolean(),
  MjImageProxy: z.enum(['off', 'gateway', 'worker']),
  MjFastFallbackRelax: z.boolean(),
})
const codec = plainCodec(schema, { stripSlash: ['CFWorkerImageUrl'] })

export function OperationOtherSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="operation-other"
      title={t('sections.operationOther.title')}
      description={t('sections.operationOther.description')}
      options={options}
      schema={schema}
      {...codec}
    >
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <SwitchField control={form.control} name="ChatCacheEnabled" label={t('fields.ChatCacheEnabled.label')} description={t('fields.ChatCacheEnabled.help')} />
            <SwitchField control={form.control} name="MjNotifyEnabled" label={t('fields.MjNotifyEnabled.label')} description={t('fields.MjNotifyEnabled.help')} />
            <SwitchField control={form.control} name="MjFastFallbackRelax" label={t('fields.MjFastFallbackRelax.label')} description={t('fields.MjFastFallbackRelax.help')} />
            <FormField
              control={form.control}
              name="MjImageProxy"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.MjImageProxy.label')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger name="MjImageProxy" className="w-full" data-testid="mj-image-proxy-select">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value="off">{t('fields.MjImageProxy.off')}</SelectItem>
                      <SelectItem value="gateway">{t('fields.MjImageProxy.gateway')}</SelectItem>
                      <SelectItem value="worker">{t('fields.MjImageProxy.worker')}</SelectItem>
                    </SelectContent>
                  </Select>
                  <FormDescription className="text-xs">{t('fields.MjImageProxy.help')}</FormDescription>
                  <FieldMessage />
                </FormItem>
              )}
            />
          </FieldGrid>
          <FieldGrid className="xl:grid-cols-2">
            <NumberField
              control={form.control}
              name="ChatCacheExpireMinute"
              label={t('fields.ChatCacheExpireMinute.label')}
              description={t('fields.ChatCacheExpireMinute.help')}
              suffix={t('units.minutes')}
            />
            <NumberField control={form.control} name="ChatCacheHitRatio" label={t('fields.ChatCacheHitRatio.label')} description={t('fields.ChatCacheHitRatio.help')} />
            <TextField
              control={form.control}
              name="ChatImageRequestProxy"
              label={t('fields.ChatImageRequestProxy.label')}
              description={t('fields.ChatImageRequestProxy.help')}
              placeholder="socks5://user:pass@host:1080"
              mono
            />
            <TextField
              control={form.control}
              name="CFWorkerImageUrl"
              label={t('fields.CFWorkerImageUrl.label')}
              description={t('fields.CFWorkerImageUrl.help')}
              placeholder="https://"
              inputMode="url"
            />
            <SecretField
              control={form.control}
              name="CFWorkerImageKey"
              label={t('fields.CFWorkerImageKey.label')}
              description={t('fields.CFWorkerImageKey.help')}
              configured={isConfigured(options, 'CFWorkerImageKey')}
            />
          </FieldGrid>
        </>
      )}
    </SettingsSection>
  )
}
