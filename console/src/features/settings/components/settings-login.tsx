/**
 * System → Server address (the public base of mails, OAuth callbacks and chat links), the login
 * and registration switches (the server refuses a method without its credentials and its message
 * lands under the switch), and the email domain whitelist edited as chips.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { OptionMap } from '../api'
import { emailDomainSchema, urlText, type EmailDomainValues } from '../schema'
import { optionValue, plainCodec } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, TagsField, TextField } from './settings-fields'
import { SettingsSection } from './settings-section'
import { siteUrl } from '@/lib/base-path'

const serverSchema = z.object({ ServerAddress: urlText })
const serverCodec = plainCodec(serverSchema, { stripSlash: ['ServerAddress'] })

export function ServerAddressSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="server" title={t('sections.server.title')} description={t('sections.server.description')} options={options} schema={serverSchema} {...serverCodec}>
      {(form) => (
        <TextField
          control={form.control}
          name="ServerAddress"
          label={t('fields.ServerAddress.label')}
          description={t('fields.ServerAddress.help', { origin: siteUrl() })}
          placeholder={siteUrl()}
          inputMode="url"
          className="max-w-xl"
        />
      )}
    </SettingsSection>
  )
}

const LOGIN_KEYS = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'RegisterEnabled',
  'EmailVerificationEnabled',
  'PasswordChangeMailEnabled',
  'Require2FAForAdmins',
  'NewDeviceSignInNotice',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'LarkAuthEnabled',
  'OIDCAuthEnabled',
  'TurnstileCheckEnabled',
] as const

const loginSchema = z.object(Object.fromEntries(LOGIN_KEYS.map((k) => [k, z.boolean()])) as Record<(typeof LOGIN_KEYS)[number], z.ZodBoolean>)
const loginCodec = plainCodec(loginSchema)

export function LoginSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="login" title={t('sections.login.title')} description={t('sections.login.description')} options={options} schema={loginSchema} {...loginCodec}>
      {(form) => (
        <FieldGrid>
          {LOGIN_KEYS.map((key) => (
            <SwitchField key={key} control={form.control} name={key} label={t(`fields.${key}.label`)} description={t(`fields.${key}.help`)} />
          ))}
        </FieldGrid>
      )}
    </SettingsSection>
  )
}

const toDomains = (raw: string) =>
  raw
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)

export function EmailDomainSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="email-domains"
      title={t('sections.emailDomains.title')}
      description={t('sections.emailDomains.description')}
      options={options}
      schema={emailDomainSchema}
      toForm={(o): EmailDomainValues => ({
        EmailDomainRestrictionEnabled: optionValue(o, 'EmailDomainRestrictionEnabled') === 'true',
        EmailDomainWhitelist: toDomains(optionValue(o, 'EmailDomainWhitelist')),
      })}
      toOptions={(v) => ({
        EmailDomainRestrictionEnabled: String(v.EmailDomainRestrictionEnabled),
        EmailDomainWhitelist: v.EmailDomainWhitelist.map((d) => d.toLowerCase()).join(','),
      })}
    >
      {(form) => (
        <div className="grid gap-5">
          <SwitchField
            control={form.control}
            name="EmailDomainRestrictionEnabled"
            label={t('fields.EmailDomainRestrictionEnabled.label')}
            description={t('fields.EmailDomainRestrictionEnabled.help')}
            className="max-w-xl"
          />
          <TagsField
            control={form.control}
            name="EmailDomainWhitelist"
            label={t('fields.EmailDomainWhitelist.label')}
            description={t('fields.EmailDomainWhitelist.help')}
            placeholder={t('fields.EmailDomainWhitelist.placeholder')}
          />
        </div>
      )}
    </SettingsSection>
  )
}
