/**
 * System → sign-in providers and mail: SMTP (port 587 by default), GitHub OAuth, WeChat server,
 * Lark, OIDC (issuer discovery, scopes, username claims) and Turnstile. Secrets are write-only
 * fields; the OAuth cards show the callback URL to register with the provider, built like the
 * server builds it: ServerAddress (or this site's origin) + /oauth/<provider>.
 */
import { Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { copyText } from '@/lib/clipboard'
import type { OptionMap } from '../api'
import { numberText, urlText } from '../schema'
import { isConfigured, optionValue, plainCodec, trimUrl } from '../values'
import { FieldGrid, NumberField, TextField } from './settings-fields'
import { SecretField } from './settings-secret-field'
import { SettingsSection } from './settings-section'
import { siteUrl } from '@/lib/base-path'

function CallbackUrl({ options, path }: { options: OptionMap; path: string }) {
  const { t } = useTranslation('settings')
  const url = `${trimUrl(optionValue(options, 'ServerAddress')) || siteUrl()}${path}`
  const id = `callback-${path.replaceAll('/', '-')}`
  return (
    <div className="grid gap-2 rounded-lg border border-dashed bg-muted/40 p-3">
      <Label htmlFor={id}>{t('callback.label')}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={url} className="bg-background font-mono text-xs md:text-xs" onFocus={(e) => e.currentTarget.select()} data-testid={id} />
        <Button type="button" variant="outline" size="icon" onClick={() => copyText(url)} aria-label={t('callback.copy')}>
          <Copy />
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{t('callback.help')}</p>
    </div>
  )
}

const smtpSchema = z.object({
  SMTPServer: z.string(),
  SMTPPort: numberText('SMTPPort'),
  SMTPAccount: z.string(),
  SMTPFrom: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[^\s@]+@[^\s@]+$/.test(v), 'settings:validation.email'),
  SMTPToken: z.string(),
})
const smtpCodec = plainCodec(smtpSchema)

export function SmtpSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="smtp" title={t('sections.smtp.title')} description={t('sections.smtp.description')} options={options} schema={smtpSchema} {...smtpCodec}>
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <TextField control={form.control} name="SMTPServer" label={t('fields.SMTPServer.label')} description={t('fields.SMTPServer.help')} placeholder="smtp.example.com" />
          <NumberField control={form.control} name="SMTPPort" label={t('fields.SMTPPort.label')} description={t('fields.SMTPPort.help')} placeholder="587" />
          <TextField control={form.control} name="SMTPAccount" label={t('fields.SMTPAccount.label')} description={t('fields.SMTPAccount.help')} placeholder="noreply@example.com" />
          <TextField
            control={form.control}
            name="SMTPFrom"
            label={t('fields.SMTPFrom.label')}
            description={t('fields.SMTPFrom.help')}
            placeholder="noreply@example.com"
            inputMode="email"
          />
          <SecretField
            control={form.control}
            name="SMTPToken"
            label={t('fields.SMTPToken.label')}
            description={t('fields.SMTPToken.help')}
            configured={isConfigured(options, 'SMTPToken')}
          />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}

const githubSchema = z.object({ GitHubClientId: z.string(), GitHubClientSecret: z.string() })
const githubCodec = plainCodec(githubSchema)

export function GitHubSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="github" title={t('sections.github.title')} description={t('sections.github.description')} options={options} schema={githubSchema} {...githubCodec}>
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <TextField control={form.control} name="GitHubClientId" label={t('fields.GitHubClientId.label')} mono />
            <SecretField control={form.control} name="GitHubClientSecret" label={t('fields.GitHubClientSecret.label')} configured={isConfigured(options, 'GitHubClientSecret')} />
          </FieldGrid>
          <CallbackUrl options={options} path="/oauth/github" />
        </>
      )}
    </SettingsSection>
  )
}

const wechatSchema = z.object({ WeChatServerAddress: urlText, WeChatServerToken: z.string(), WeChatAccountQRCodeImageURL: urlText })
const wechatCodec = plainCodec(wechatSchema, { stripSlash: ['WeChatServerAddress'] })

export function WeChatSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="wechat" title={t('sections.wechat.title')} description={t('sections.wechat.description')} options={options} schema={wechatSchema} {...wechatCodec}>
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <TextField
            control={form.control}
            name="WeChatServerAddress"
            label={t('fields.WeChatServerAddress.label')}
            description={t('fields.WeChatServerAddress.help')}
            placeholder="https://"
            inputMode="url"
          />
          <SecretField
            control={form.control}
            name="WeChatServerToken"
            label={t('fields.WeChatServerToken.label')}
            description={t('fields.WeChatServerToken.help')}
            configured={isConfigured(options, 'WeChatServerToken')}
          />
          <TextField
            control={form.control}
            name="WeChatAccountQRCodeImageURL"
            label={t('fields.WeChatAccountQRCodeImageURL.label')}
            description={t('fields.WeChatAccountQRCodeImageURL.help')}
            placeholder="https://"
            inputMode="url"
          />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}

const larkSchema = z.object({ LarkClientId: z.string(), LarkClientSecret: z.string() })
const larkCodec = plainCodec(larkSchema)

export function LarkSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="lark" title={t('sections.lark.title')} description={t('sections.lark.description')} options={options} schema={larkSchema} {...larkCodec}>
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <TextField control={form.control} name="LarkClientId" label={t('fields.LarkClientId.label')} placeholder="cli_…" mono />
            <SecretField control={form.control} name="LarkClientSecret" label={t('fields.LarkClientSecret.label')} configured={isConfigured(options, 'LarkClientSecret')} />
          </FieldGrid>
          <CallbackUrl options={options} path="/oauth/lark" />
        </>
      )}
    </SettingsSection>
  )
}

const oidcSchema = z.object({
  OIDCClientId: z.string(),
  OIDCClientSecret: z.string(),
  OIDCIssuer: urlText,
  OIDCScopes: z.string(),
  OIDCUsernameClaims: z.string(),
})
const oidcCodec = plainCodec(oidcSchema)

export function OidcSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="oidc" title={t('sections.oidc.title')} description={t('sections.oidc.description')} options={options} schema={oidcSchema} {...oidcCodec}>
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <TextField
              control={form.control}
              name="OIDCIssuer"
              label={t('fields.OIDCIssuer.label')}
              description={t('fields.OIDCIssuer.help')}
              placeholder="https://accounts.example.com"
              inputMode="url"
              className="xl:col-span-2"
            />
            <TextField control={form.control} name="OIDCClientId" label={t('fields.OIDCClientId.label')} mono />
            <SecretField control={form.control} name="OIDCClientSecret" label={t('fields.OIDCClientSecret.label')} configured={isConfigured(options, 'OIDCClientSecret')} />
            <TextField
              control={form.control}
              name="OIDCScopes"
              label={t('fields.OIDCScopes.label')}
              description={t('fields.OIDCScopes.help')}
              placeholder="openid,email,profile"
              mono
            />
            <TextField
              control={form.control}
              name="OIDCUsernameClaims"
              label={t('fields.OIDCUsernameClaims.label')}
              description={t('fields.OIDCUsernameClaims.help')}
              placeholder="preferred_username"
              mono
            />
          </FieldGrid>
          <CallbackUrl options={options} path="/oauth/oidc" />
        </>
      )}
    </SettingsSection>
  )
}

const turnstileSchema = z.object({ TurnstileSiteKey: z.string(), TurnstileSecretKey: z.string() })
const turnstileCodec = plainCodec(turnstileSchema)

export function TurnstileSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="turnstile"
      title={t('sections.turnstile.title')}
      description={t('sections.turnstile.description')}
      options={options}
      schema={turnstileSchema}
      {...turnstileCodec}
    >
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <TextField control={form.control} name="TurnstileSiteKey" label={t('fields.TurnstileSiteKey.label')} mono />
          <SecretField control={form.control} name="TurnstileSecretKey" label={t('fields.TurnstileSecretKey.label')} configured={isConfigured(options, 'TurnstileSecretKey')} />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}
