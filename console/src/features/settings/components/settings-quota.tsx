/**
 * Operation → Quota (rewards for new users, inviters and invitees, the inviter's daily reward cap,
 * pre-consumed quota per request, the IANA time zone whose midnight starts token budget periods)
 * and Monitoring (automatic channel disable/enable, slow-response threshold, low-balance reminder,
 * disabling keywords, scheduled tests and balance refreshes). Quotas are typed in dollars when the
 * site shows currency, in units otherwise (lib/format quotaToInput / inputToQuota).
 */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { isTimeZone } from '@contract/option-checks'
import { displayInCurrency } from '@/lib/format'
import { useSiteInfo } from '@/features/site/api'
import type { OptionMap } from '../api'
import { numberText, quotaText } from '../schema'
import { optionValue, quotaFromOption, quotaToOption } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, NumberField, QuotaField, SettingsTextareaField, TextField } from './settings-fields'
import { SettingsSection } from './settings-section'

const QUOTA_KEYS = ['QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee', 'PreConsumedQuota'] as const

/**
 * The currency flag the quota inputs use (lib/format reads the saved site info), re-read whenever
 * the site info changes; sections remount with it so their checks and conversions follow.
 */
function useCurrency(): boolean {
  useSiteInfo()
  return displayInCurrency()
}

export function QuotaSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  const currency = useCurrency()
  const schema = useMemo(
    () =>
      z.object({
        ...(Object.fromEntries(QUOTA_KEYS.map((k) => [k, quotaText(currency)])) as Record<(typeof QUOTA_KEYS)[number], ReturnType<typeof quotaText>>),
        InviteRewardDailyLimit: numberText('InviteRewardDailyLimit'),
        DefaultPlanId: numberText('DefaultPlanId'),
        BudgetTimezone: z.string().trim().refine(isTimeZone, 'settings:fields.BudgetTimezone.invalid'),
      }),
    [currency]
  )
  type Values = z.infer<typeof schema>
  return (
    <SettingsSection
      key={String(currency)}
      id="quota"
      title={t('sections.quota.title')}
      description={currency ? t('sections.quota.descriptionDollars') : t('sections.quota.descriptionUnits')}
      options={options}
      schema={schema}
      toForm={(o) =>
        ({
          ...Object.fromEntries(QUOTA_KEYS.map((k) => [k, quotaFromOption(o, k)])),
          InviteRewardDailyLimit: optionValue(o, 'InviteRewardDailyLimit'),
          DefaultPlanId: optionValue(o, 'DefaultPlanId') || '0',
          BudgetTimezone: optionValue(o, 'BudgetTimezone') || 'UTC',
        }) as Values
      }
      toOptions={(v) => ({
        ...Object.fromEntries(QUOTA_KEYS.map((k) => [k, quotaToOption(v[k])])),
        InviteRewardDailyLimit: v.InviteRewardDailyLimit.trim(),
        DefaultPlanId: v.DefaultPlanId.trim(),
        BudgetTimezone: v.BudgetTimezone.trim(),
      })}
    >
      {(form) => (
        <FieldGrid className="xl:grid-cols-4">
          {QUOTA_KEYS.map((key) => (
            <QuotaField key={key} control={form.control} name={key} label={t(`fields.${key}.label`)} description={t(`fields.${key}.help`)} />
          ))}
          <NumberField
            control={form.control}
            name="InviteRewardDailyLimit"
            label={t('fields.InviteRewardDailyLimit.label')}
            description={t('fields.InviteRewardDailyLimit.help')}
          />
          <NumberField control={form.control} name="DefaultPlanId" label={t('fields.DefaultPlanId.label')} description={t('fields.DefaultPlanId.help')} />
          <TextField control={form.control} name="BudgetTimezone" label={t('fields.BudgetTimezone.label')} description={t('fields.BudgetTimezone.help')} placeholder="UTC" mono />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}

const monitoringPlain = {
  AutomaticDisableChannelEnabled: z.boolean(),
  AutomaticEnableChannelEnabled: z.boolean(),
  AutoDisableFailureThreshold: numberText('AutoDisableFailureThreshold'),
  AutoDisableWindowSeconds: numberText('AutoDisableWindowSeconds'),
  AutoRetestBaseMinutes: numberText('AutoRetestBaseMinutes'),
  NotifyCooldownMinutes: numberText('NotifyCooldownMinutes'),
  AlertErrorRatePercent: numberText('AlertErrorRatePercent'),
  AlertErrorRateMinRequests: numberText('AlertErrorRateMinRequests'),
  ChannelAffinityEnabled: z.boolean(),
  ChannelDisableThreshold: numberText('ChannelDisableThreshold'),
  DisableChannelKeywords: z.string(),
  ChannelTestFrequency: numberText('ChannelTestFrequency'),
  ChannelBalanceFrequency: numberText('ChannelBalanceFrequency'),
}

/** Keywords one per line, without blank lines or stray spaces. */
const cleanKeywords = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n')

export function MonitoringSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  const currency = useCurrency()
  const schema = useMemo(() => z.object({ ...monitoringPlain, QuotaRemindThreshold: quotaText(currency) }), [currency])
  type Values = z.infer<typeof schema>
  const toForm = (o: OptionMap): Values => ({
    AutomaticDisableChannelEnabled: optionValue(o, 'AutomaticDisableChannelEnabled') === 'true',
    AutomaticEnableChannelEnabled: optionValue(o, 'AutomaticEnableChannelEnabled') === 'true',
    AutoDisableFailureThreshold: optionValue(o, 'AutoDisableFailureThreshold'),
    AutoDisableWindowSeconds: optionValue(o, 'AutoDisableWindowSeconds'),
    AutoRetestBaseMinutes: optionValue(o, 'AutoRetestBaseMinutes'),
    NotifyCooldownMinutes: optionValue(o, 'NotifyCooldownMinutes'),
    AlertErrorRatePercent: optionValue(o, 'AlertErrorRatePercent'),
    AlertErrorRateMinRequests: optionValue(o, 'AlertErrorRateMinRequests'),
    ChannelAffinityEnabled: optionValue(o, 'ChannelAffinityEnabled') === 'true',
    ChannelDisableThreshold: optionValue(o, 'ChannelDisableThreshold'),
    QuotaRemindThreshold: quotaFromOption(o, 'QuotaRemindThreshold'),
    DisableChannelKeywords: optionValue(o, 'DisableChannelKeywords'),
    ChannelTestFrequency: optionValue(o, 'ChannelTestFrequency'),
    ChannelBalanceFrequency: optionValue(o, 'ChannelBalanceFrequency'),
  })
  const toOptions = (v: Values) => ({
    AutomaticDisableChannelEnabled: String(v.AutomaticDisableChannelEnabled),
    AutomaticEnableChannelEnabled: String(v.AutomaticEnableChannelEnabled),
    AutoDisableFailureThreshold: v.AutoDisableFailureThreshold.trim(),
    AutoDisableWindowSeconds: v.AutoDisableWindowSeconds.trim(),
    AutoRetestBaseMinutes: v.AutoRetestBaseMinutes.trim(),
    NotifyCooldownMinutes: v.NotifyCooldownMinutes.trim(),
    AlertErrorRatePercent: v.AlertErrorRatePercent.trim(),
    AlertErrorRateMinRequests: v.AlertErrorRateMinRequests.trim(),
    ChannelAffinityEnabled: String(v.ChannelAffinityEnabled),
    ChannelDisableThreshold: v.ChannelDisableThreshold.trim(),
    QuotaRemindThreshold: quotaToOption(v.QuotaRemindThreshold),
    DisableChannelKeywords: cleanKeywords(v.DisableChannelKeywords),
    ChannelTestFrequency: v.ChannelTestFrequency.trim(),
    ChannelBalanceFrequency: v.ChannelBalanceFrequency.trim(),
  })
  return (
    <SettingsSection
      key={String(currency)}
      id="monitoring"
      title={t('sections.monitoring.title')}
      description={t('sections.monitoring.description')}
      options={options}
      schema={schema}
      toForm={toForm}
      toOptions={toOptions}
    >
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <SwitchField
              control={form.control}
              name="AutomaticDisableChannelEnabled"
              label={t('fields.AutomaticDisableChannelEnabled.label')}
              description={t('fields.AutomaticDisableChannelEnabled.help')}
            />
            <SwitchField
              control={form.control}
              name="AutomaticEnableChannelEnabled"
              label={t('fields.AutomaticEnableChannelEnabled.label')}
              description={t('fields.AutomaticEnableChannelEnabled.help')}
            />
            <SwitchField
              control={form.control}
              name="ChannelAffinityEnabled"
              label={t('fields.ChannelAffinityEnabled.label')}
              description={t('fields.ChannelAffinityEnabled.help')}
            />
          </FieldGrid>
          <FieldGrid className="xl:grid-cols-4">
            <NumberField
              control={form.control}
              name="AutoDisableFailureThreshold"
              label={t('fields.AutoDisableFailureThreshold.label')}
              description={t('fields.AutoDisableFailureThreshold.help')}
              suffix={t('units.times')}
            />
            <NumberField
              control={form.control}
              name="AutoDisableWindowSeconds"
              label={t('fields.AutoDisableWindowSeconds.label')}
              description={t('fields.AutoDisableWindowSeconds.help')}
              suffix={t('units.seconds')}
            />
            <NumberField
              control={form.control}
              name="AutoRetestBaseMinutes"
              label={t('fields.AutoRetestBaseMinutes.label')}
              description={t('fields.AutoRetestBaseMinutes.help')}
              suffix={t('units.minutes')}
            />
            <NumberField
              control={form.control}
              name="NotifyCooldownMinutes"
              label={t('fields.NotifyCooldownMinutes.label')}
              description={t('fields.NotifyCooldownMinutes.help')}
              suffix={t('units.minutes')}
            />
            <NumberField
              control={form.control}
              name="AlertErrorRatePercent"
              label={t('fields.AlertErrorRatePercent.label')}
              description={t('fields.AlertErrorRatePercent.help')}
              suffix="%"
            />
            <NumberField
              control={form.control}
              name="AlertErrorRateMinRequests"
              label={t('fields.AlertErrorRateMinRequests.label')}
              description={t('fields.AlertErrorRateMinRequests.help')}
            />
            <NumberField
              control={form.control}
              name="ChannelDisableThreshold"
              label={t('fields.ChannelDisableThreshold.label')}
              description={t('fields.ChannelDisableThreshold.help')}
              suffix={t('units.seconds')}
            />
            <QuotaField control={form.control} name="QuotaRemindThreshold" label={t('fields.QuotaRemindThreshold.label')} description={t('fields.QuotaRemindThreshold.help')} />
            <NumberField
              control={form.control}
              name="ChannelTestFrequency"
              label={t('fields.ChannelTestFrequency.label')}
              description={t('fields.ChannelTestFrequency.help')}
              suffix={t('units.minutes')}
            />
            <NumberField
              control={form.control}
              name="ChannelBalanceFrequency"
              label={t('fields.ChannelBalanceFrequency.label')}
              description={t('fields.ChannelBalanceFrequency.help')}
              suffix={t('units.minutes')}
            />
          </FieldGrid>
          <SettingsTextareaField
            control={form.control}
            name="DisableChannelKeywords"
            label={t('fields.DisableChannelKeywords.label')}
            description={t('fields.DisableChannelKeywords.help')}
            rows={6}
            mono
          />
        </>
      )}
    </SettingsSection>
  )
}
