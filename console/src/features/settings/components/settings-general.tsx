/**
 * Operation → General: top-up and chat links, quota per unit, retries and upstream timeout, realtime
 * sessions per key, how usage is shown and counted, and the default price of unpriced models (DefaultModelPrice: empty
 * refuses them; otherwise {type, input, output} in price ratios).
 */
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormControl, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { OptionMap } from '../api'
import { checkDefaultPrice, defaultPriceFields, numberText, urlText } from '../schema'
import { optionValue, plainCodec } from '../values'
import { SwitchField } from '@/components/form-fields'
import { FieldGrid, FieldGroup, NumberField, TextField } from './settings-fields'
import { SettingsSection } from './settings-section'

const plain = z.object({
  TopUpLink: urlText,
  ChatLink: urlText,
  QuotaPerUnit: numberText('QuotaPerUnit'),
  RetryTimes: numberText('RetryTimes'),
  RetryCooldownSeconds: numberText('RetryCooldownSeconds'),
  RetryTimeOut: numberText('RetryTimeOut'),
  UpstreamTimeoutSeconds: numberText('UpstreamTimeoutSeconds'),
  RealtimeMaxSessionsPerKey: numberText('RealtimeMaxSessionsPerKey'),
  MaxUserOpenRequests: numberText('MaxUserOpenRequests'),
  MaxUserOverrun: numberText('MaxUserOverrun'),
  DisplayInCurrencyEnabled: z.boolean(),
  DisplayTokenStatEnabled: z.boolean(),
  ApproximateTokenEnabled: z.boolean(),
})
const schema = plain.extend(defaultPriceFields).superRefine(checkDefaultPrice)
type Values = z.infer<typeof schema>
const codec = plainCodec(plain)

function priceFromOption(raw: string) {
  try {
    const price = JSON.parse(raw) as { type?: string; input?: number; output?: number }
    return {
      DefaultPriceEnabled: true,
      DefaultPriceType: price.type === 'times' ? ('times' as const) : ('tokens' as const),
      DefaultPriceInput: String(price.input ?? 0),
      DefaultPriceOutput: String(price.output ?? 0),
    }
  } catch {
    return { DefaultPriceEnabled: false, DefaultPriceType: 'tokens' as const, DefaultPriceInput: '', DefaultPriceOutput: '' }
  }
}

const toForm = (options: OptionMap): Values => ({ ...codec.toForm(options), ...priceFromOption(optionValue(options, 'DefaultModelPrice')) })

const toOptions = (v: Values) => ({
  ...codec.toOptions(v),
  DefaultModelPrice: v.DefaultPriceEnabled ? JSON.stringify({ type: v.DefaultPriceType, input: Number(v.DefaultPriceInput), output: Number(v.DefaultPriceOutput) }) : '',
})

/**
 * The dollar value of a typed price ratio, when it is a number (one-hub's rule: ratio 1 = $0.002 per 1K
 * tokens, i.e. $2 per 1M tokens; a per-call price charges ratio × $0.002 per request).
 */
function ratioDollars(type: 'tokens' | 'times', value: string): string | undefined {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) return undefined
  return `$${Number((n * (type === 'times' ? 0.002 : 2)).toPrecision(6))}`
}

export function GeneralSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="general"
      title={t('sections.general.title')}
      description={t('sections.general.description')}
      options={options}
      schema={schema}
      toForm={toForm}
      toOptions={toOptions}
      fieldAliases={{ DefaultModelPrice: 'DefaultPriceInput' }}
    >
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <TextField
              control={form.control}
              name="TopUpLink"
              label={t('fields.TopUpLink.label')}
              description={t('fields.TopUpLink.help')}
              placeholder="https://"
              inputMode="url"
            />
            <TextField control={form.control} name="ChatLink" label={t('fields.ChatLink.label')} description={t('fields.ChatLink.help')} placeholder="https://" inputMode="url" />
            <NumberField control={form.control} name="QuotaPerUnit" label={t('fields.QuotaPerUnit.label')} description={t('fields.QuotaPerUnit.help')} />
            <NumberField
              control={form.control}
              name="UpstreamTimeoutSeconds"
              label={t('fields.UpstreamTimeoutSeconds.label')}
              description={t('fields.UpstreamTimeoutSeconds.help')}
              suffix={t('units.seconds')}
            />
            <NumberField
              control={form.control}
              name="RealtimeMaxSessionsPerKey"
              label={t('fields.RealtimeMaxSessionsPerKey.label')}
              description={t('fields.RealtimeMaxSessionsPerKey.help')}
            />
            <NumberField control={form.control} name="MaxUserOpenRequests" label={t('fields.MaxUserOpenRequests.label')} description={t('fields.MaxUserOpenRequests.help')} />
            <NumberField control={form.control} name="MaxUserOverrun" label={t('fields.MaxUserOverrun.label')} description={t('fields.MaxUserOverrun.help')} />
          </FieldGrid>
          <FieldGroup title={t('groups.retries')}>
            <FieldGrid>
              <NumberField control={form.control} name="RetryTimes" label={t('fields.RetryTimes.label')} description={t('fields.RetryTimes.help')} suffix={t('units.times')} />
              <NumberField
                control={form.control}
                name="RetryCooldownSeconds"
                label={t('fields.RetryCooldownSeconds.label')}
                description={t('fields.RetryCooldownSeconds.help')}
                suffix={t('units.seconds')}
              />
              <NumberField
                control={form.control}
                name="RetryTimeOut"
                label={t('fields.RetryTimeOut.label')}
                description={t('fields.RetryTimeOut.help')}
                suffix={t('units.seconds')}
              />
            </FieldGrid>
          </FieldGroup>
          <FieldGroup title={t('groups.display')}>
            <FieldGrid>
              <SwitchField
                control={form.control}
                name="DisplayInCurrencyEnabled"
                label={t('fields.DisplayInCurrencyEnabled.label')}
                description={t('fields.DisplayInCurrencyEnabled.help')}
              />
              <SwitchField
                control={form.control}
                name="DisplayTokenStatEnabled"
                label={t('fields.DisplayTokenStatEnabled.label')}
                description={t('fields.DisplayTokenStatEnabled.help')}
              />
              <SwitchField
                control={form.control}
                name="ApproximateTokenEnabled"
                label={t('fields.ApproximateTokenEnabled.label')}
                description={t('fields.ApproximateTokenEnabled.help')}
              />
            </FieldGrid>
          </FieldGroup>
          <DefaultPriceFields form={form} />
        </>
      )}
    </SettingsSection>
  )
}

function DefaultPriceFields({ form }: { form: UseFormReturn<Values> }) {
  const { t } = useTranslation('settings')
  const [enabled, type, input, output] = useWatch({
    control: form.control,
    name: ['DefaultPriceEnabled', 'DefaultPriceType', 'DefaultPriceInput', 'DefaultPriceOutput'],
  })
  const hint = (value: string) => {
    const usd = ratioDollars(type, value)
    return usd === undefined ? t('price.ratioHelp') : t(type === 'times' ? 'price.perCall' : 'price.perMillion', { usd })
  }
  return (
    <FieldGroup title={t('groups.defaultPrice')}>
      <SwitchField
        control={form.control}
        name="DefaultPriceEnabled"
        label={t('fields.DefaultModelPrice.label')}
        description={enabled ? t('fields.DefaultModelPrice.helpOn') : t('fields.DefaultModelPrice.helpOff')}
      />
      {enabled && (
        <FieldGrid>
          <FormField
            control={form.control}
            name="DefaultPriceType"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.DefaultModelPrice.type')}</FormLabel>
                <Select value={field.value} onValueChange={field.onChange}>
                  <FormControl>
                    <SelectTrigger className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    <SelectItem value="tokens">{t('price.tokens')}</SelectItem>
                    <SelectItem value="times">{t('price.times')}</SelectItem>
                  </SelectContent>
                </Select>
              </FormItem>
            )}
          />
          <TextField control={form.control} name="DefaultPriceInput" label={t('fields.DefaultModelPrice.input')} inputMode="decimal" description={hint(input)} />
          <TextField control={form.control} name="DefaultPriceOutput" label={t('fields.DefaultModelPrice.output')} inputMode="decimal" description={hint(output)} />
        </FieldGrid>
      )}
    </FieldGroup>
  )
}
