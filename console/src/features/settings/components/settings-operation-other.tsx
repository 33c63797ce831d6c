/**
 * Operation → Other: the response cache for identical chat requests and its expiry, the proxy
 * used to fetch images in chat requests, the Cloudflare Worker image proxy (URL + secret key) and
 * Midjourney callback notifications.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { OptionMap } from '../api'
import { numberText, proxyText, urlText } from '../schema'
import { isConfigured, plainCodec } from '../values'
import { FieldGrid, NumberField, SwitchField, TextField } from './settings-fields'
import { SecretField } from './settings-secret-field'
import { SettingsSection } from './settings-section'

const schema = z.object({
  ChatCacheEnabled: z.boolean(),
  ChatCacheExpireMinute: numberText('ChatCacheExpireMinute'),
  ChatImageRequestProxy: proxyText,
  CFWorkerImageUrl: urlText,
  CFWorkerImageKey: z.string(),
  MjNotifyEnabled: z.boolean(),
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
          </FieldGrid>
          <FieldGrid className="xl:grid-cols-2">
            <NumberField control={form.control} name="ChatCacheExpireMinute" label={t('fields.ChatCacheExpireMinute.label')} description={t('fields.ChatCacheExpireMinute.help')} suffix={t('units.minutes')} />
            <TextField control={form.control} name="ChatImageRequestProxy" label={t('fields.ChatImageRequestProxy.label')} description={t('fields.ChatImageRequestProxy.help')} placeholder="socks5://user:pass@host:1080" mono />
            <TextField control={form.control} name="CFWorkerImageUrl" label={t('fields.CFWorkerImageUrl.label')} description={t('fields.CFWorkerImageUrl.help')} placeholder="https://" inputMode="url" />
            <SecretField control={form.control} name="CFWorkerImageKey" label={t('fields.CFWorkerImageKey.label')} description={t('fields.CFWorkerImageKey.help')} configured={isConfigured(options, 'CFWorkerImageKey')} />
          </FieldGrid>
        </>
      )}
    </SettingsSection>
  )
}
