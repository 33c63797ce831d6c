/**
 * The price fields shared by the single and the merged edit dialogs: type, supplier, input and
 * output multipliers with their live dollar equivalents, the lock, extra ratios as
 * kind → ratio rows, and the long-context tier and fee (price-tier-fields.tsx). They read the surrounding react-hook-form through its context.
 */
import { useQuery } from '@tanstack/react-query'
import { Plus, X } from 'lucide-react'
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Switch } from '@/components/ui/switch'
import { channelTypesQueryOptions } from '../api'
import { EXTRA_RATIO_KINDS, type PriceFieldValues } from '../schema'
import type { PriceType } from '../units'
import { useUsdLabel } from './price-cells'
import { PriceTierFields } from './price-tier-fields'

function MultiplierField({ name }: { name: 'input' | 'output' }) {
  const { t } = useTranslation('pricing')
  const { control } = useFormContext<PriceFieldValues>()
  const type = useWatch({ control, name: 'type' }) as PriceType
  const value = useWatch({ control, name })
  const usd = useUsdLabel()
  const unused = type === 'times' && name === 'output'
  const n = Number(value)
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{t(`fields.${name}`)}</FormLabel>
          <FormControl>
            <Input {...field} inputMode="decimal" autoComplete="off" disabled={unused} />
          </FormControl>
          <FormDescription data-testid={`usd-${name}`}>
            {unused ? t('units.outputUnused') : value !== '' && Number.isFinite(n) && n >= 0 ? `= ${usd(type, n)}` : t('units.hint')}
          </FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  )
}

function ExtraRatiosField() {
  const { t } = useTranslation('pricing')
  const { control } = useFormContext<PriceFieldValues>()
  const { fields, append, remove } = useFieldArray({ control, name: 'extra_ratios' })
  const rows = useWatch({ control, name: 'extra_ratios' })
  const used = new Set(rows.map((r) => r.kind))
  const next = EXTRA_RATIO_KINDS.find((k) => !used.has(k))
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">
          {t('fields.extraRatios')}
          <span className="ml-1 font-normal text-muted-foreground">{t('common:optional')}</span>
        </span>
        <Button type="button" variant="outline" size="sm" disabled={!next} onClick={() => next && append({ kind: next, ratio: '1' })}>
          <Plus />
          {t('extra.add')}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">{t('extra.help')}</p>
      {fields.map((row, i) => (
        <div key={row.id} className="grid grid-cols-[minmax(0,1fr)_6.5rem_auto] items-start gap-2" data-testid="extra-ratio-row">
          <FormField
            control={control}
            name={`extra_ratios.${i}.kind`}
            render={({ field }) => (
              <FormItem>
                <Select value={field.value} onValueChange={field.onChange}>
                  <FormControl>
                    <SelectTrigger className="w-full" aria-label={t('extra.kind')}>
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {EXTRA_RATIO_KINDS.map((k) => (
                      <SelectItem key={k} value={k} disabled={k !== field.value && used.has(k)}>
                        {t(`extra.kinds.${k}`)} <span className="font-mono text-xs text-muted-foreground">{k}</span>
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={control}
            name={`extra_ratios.${i}.ratio`}
            render={({ field }) => (
              <FormItem>
                <FormControl>
                  <Input {...field} inputMode="decimal" aria-label={t('extra.ratio')} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="button" variant="ghost" size="icon" aria-label={t('extra.remove')} onClick={() => remove(i)}>
            <X />
          </Button>
        </div>
      ))}
    </div>
  )
}

export function PriceFields() {
  const { t } = useTranslation('pricing')
  const { control } = useFormContext<PriceFieldValues>()
  const { data: channelTypes } = useQuery(channelTypesQueryOptions)
  return (
    <>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField
          control={control}
          name="type"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('fields.type')}</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger className="w-full" data-testid="price-type">
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  <SelectItem value="tokens">{t('types.tokens')}</SelectItem>
                  <SelectItem value="times">{t('types.times')}</SelectItem>
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={control}
          name="channel_type"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('fields.supplier')}</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger className="w-full" data-testid="price-supplier">
                    <SelectValue placeholder={t('fields.supplierPlaceholder')} />
                  </SelectTrigger>
                </FormControl>
                <SelectContent className="max-h-72">
                  {(channelTypes ?? []).map((c) => (
                    <SelectItem key={c.id} value={String(c.id)}>
                      {c.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          )}
        />
        <MultiplierField name="input" />
        <MultiplierField name="output" />
      </div>
      <PriceTierFields />
      <ExtraRatiosField />
      <FormField
        control={control}
        name="locked"
        render={({ field }) => (
          <FormItem className="flex flex-row items-center justify-between gap-4 rounded-lg border p-3">
            <div className="grid gap-1">
              <FormLabel>{t('fields.locked')}</FormLabel>
              <FormDescription>{t('fields.lockedHelp')}</FormDescription>
            </div>
            <FormControl>
              <Switch checked={field.value} onCheckedChange={field.onChange} data-testid="price-locked" />
            </FormControl>
          </FormItem>
        )}
      />
    </>
  )
}
