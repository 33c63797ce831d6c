/**
 * Operation → Log (consume logging, retention days, the LogMaxRows budget with the figure its default
 * comes from, and the logs page where root deletes logs before a date), Payment (USD exchange rate, minimum top-up, RechargeDiscount amount → factor) and
 * Rate (GroupRatio group → multiplier, the same ratios as the user groups).
 */
import type { ReactNode } from 'react'
import { Link, useRouter } from '@tanstack/react-router'
import { ArrowUpRight } from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import { z } from 'zod'
import { DEFAULT_LOG_MAX_ROWS, LOG_BUDGET_BYTES, LOG_ROW_BYTES } from '@contract/log-budget'
import type { OptionMap } from '../api'
import { numberMapText, numberText } from '../schema'
import { compactJson, optionValue, plainCodec, prettyJson } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, NumberField, SettingsTextareaField } from './settings-fields'
import { SettingsSection } from './settings-section'

/** A link to another console page, shown only when that page exists in this build. */
function PageLink({ path, children }: { path: string; children: ReactNode }) {
  const router = useRouter()
  if (!(path in router.routesByPath)) return null
  return (
    // The target is checked at run time above; the route type only lists pages built so far.
    <Link to={path as '/panel/profile'} className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
      {children}
      <ArrowUpRight className="size-3.5" />
    </Link>
  )
}

const logSchema = z.object({ LogConsumeEnabled: z.boolean(), LogCleanupDays: numberText('LogCleanupDays'), LogMaxRows: numberText('LogMaxRows') })
const logCodec = plainCodec(logSchema)

export function LogSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="log"
      title={t('sections.log.title')}
      description={t('sections.log.description')}
      options={options}
      schema={logSchema}
      {...logCodec}
      footnote={<PageLink path="/panel/log">{t('log.deleteLink')}</PageLink>}
    >
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <SwitchField control={form.control} name="LogConsumeEnabled" label={t('fields.LogConsumeEnabled.label')} description={t('fields.LogConsumeEnabled.help')} />
          <NumberField
            control={form.control}
            name="LogCleanupDays"
            label={t('fields.LogCleanupDays.label')}
            description={t('fields.LogCleanupDays.help')}
            suffix={t('units.days')}
          />
          <NumberField
            control={form.control}
            name="LogMaxRows"
            label={t('fields.LogMaxRows.label')}
            description={t('fields.LogMaxRows.help', {
              rows: DEFAULT_LOG_MAX_ROWS.toLocaleString(),
              budget: LOG_BUDGET_BYTES / 1e9,
              bytes: LOG_ROW_BYTES,
            })}
            suffix={t('units.rows')}
          />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}

const paymentSchema = z.object({
  PaymentUSDRate: numberText('PaymentUSDRate'),
  PaymentMinAmount: numberText('PaymentMinAmount'),
  RechargeDiscount: numberMapText({ amountKeys: true }),
})
type PaymentValues = z.infer<typeof paymentSchema>

export function PaymentSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="payment"
      title={t('sections.payment.title')}
      description={t('sections.payment.description')}
      options={options}
      schema={paymentSchema}
      toForm={(o): PaymentValues => ({
        PaymentUSDRate: optionValue(o, 'PaymentUSDRate'),
        PaymentMinAmount: optionValue(o, 'PaymentMinAmount'),
        RechargeDiscount: prettyJson(optionValue(o, 'RechargeDiscount')),
      })}
      toOptions={(v) => ({
        PaymentUSDRate: v.PaymentUSDRate.trim(),
        PaymentMinAmount: v.PaymentMinAmount.trim(),
        RechargeDiscount: compactJson(v.RechargeDiscount),
      })}
    >
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <NumberField control={form.control} name="PaymentUSDRate" label={t('fields.PaymentUSDRate.label')} description={t('fields.PaymentUSDRate.help')} />
            <NumberField control={form.control} name="PaymentMinAmount" label={t('fields.PaymentMinAmount.label')} description={t('fields.PaymentMinAmount.help')} prefix="$" />
          </FieldGrid>
          <SettingsTextareaField
            control={form.control}
            name="RechargeDiscount"
            label={t('fields.RechargeDiscount.label')}
            description={t('fields.RechargeDiscount.help')}
            placeholder={'{\n  "100": 0.95,\n  "500": 0.9\n}'}
            rows={5}
            mono
          />
        </>
      )}
    </SettingsSection>
  )
}

const rateSchema = z.object({ GroupRatio: numberMapText() })
type RateValues = z.infer<typeof rateSchema>

export function RateSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="rate"
      title={t('sections.rate.title')}
      description={t('sections.rate.description')}
      options={options}
      schema={rateSchema}
      toForm={(o): RateValues => ({ GroupRatio: prettyJson(optionValue(o, 'GroupRatio')) })}
      toOptions={(v) => ({ GroupRatio: compactJson(v.GroupRatio) })}
      footnote={
        <div className="grid gap-2">
          <p>
            <Trans t={t} i18nKey="rate.note" components={{ strong: <strong className="font-medium text-foreground" /> }} />
          </p>
          <PageLink path="/panel/pricing">{t('rate.pricingLink')}</PageLink>
        </div>
      }
    >
      {(form) => (
        <SettingsTextareaField
          control={form.control}
          name="GroupRatio"
          label={t('fields.GroupRatio.label')}
          description={t('fields.GroupRatio.help')}
          placeholder={'{\n  "default": 1,\n  "vip": 0.8\n}'}
          rows={6}
          mono
        />
      )}
    </SettingsSection>
  )
}
