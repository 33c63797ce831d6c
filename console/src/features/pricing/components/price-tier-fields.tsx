/**
 * The price fields that follow suppliers' price lists: an optional long-context tier (the input
 * and output multipliers above a prompt-size threshold, token prices only) and an optional fixed
 * fee per request in quota units. They read the surrounding react-hook-form through its context.
 */
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import type { PriceFieldValues } from '../schema'

type TextField = 'tier_threshold' | 'tier_input' | 'tier_output' | 'fee'

function TextInput({ name, label, numeric }: { name: TextField; label: string; numeric: 'numeric' | 'decimal' }) {
  const { control } = useFormContext<PriceFieldValues>()
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...field} inputMode={numeric} autoComplete="off" data-testid={`price-${name}`} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  )
}

export function PriceTierFields() {
  const { t } = useTranslation('pricing')
  const { control } = useFormContext<PriceFieldValues>()
  const type = useWatch({ control, name: 'type' })
  return (
    <div className="grid gap-4">
      {type === 'tokens' && (
        <fieldset className="grid gap-2" data-testid="price-tier">
          <legend className="text-sm font-medium">
            {t('fields.tier')}
            <span className="ml-1 font-normal text-muted-foreground">{t('common:optional')}</span>
          </legend>
          <p className="text-sm text-muted-foreground">{t('fields.tierHelp')}</p>
          <div className="grid items-start gap-4 sm:grid-cols-3">
            <TextInput name="tier_threshold" label={t('fields.tierThreshold')} numeric="numeric" />
            <TextInput name="tier_input" label={t('fields.tierInput')} numeric="decimal" />
            <TextInput name="tier_output" label={t('fields.tierOutput')} numeric="decimal" />
          </div>
        </fieldset>
      )}
      <FormField
        control={control}
        name="fee"
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              {t('fields.fee')}
              <span className="ml-1 font-normal text-muted-foreground">{t('common:optional')}</span>
            </FormLabel>
            <FormControl>
              <Input {...field} inputMode="numeric" autoComplete="off" placeholder="0" data-testid="price-fee" />
            </FormControl>
            <FormDescription>{t('fields.feeHelp')}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </div>
  )
}
