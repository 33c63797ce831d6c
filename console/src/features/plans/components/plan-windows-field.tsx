/**
 * The plan editor's usage windows: rows of period, allowance kind (quota or requests) and amount
 * (quota in dollars when the site shows currency), added and removed freely (up to 8).
 */
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form'
import { Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { displayInCurrency } from '@/lib/format'
import { kindLabel } from '../format'
import { PLAN_PERIODS } from '@contract/plans'
import { emptyWindow, type PlanFormValues, WINDOW_KINDS } from '../schema'
import { EnumSelect } from './enum-select'

export function AmountInput({
  form,
  name,
  kind,
  label,
}: {
  form: UseFormReturn<PlanFormValues>
  name: `windows.${number}.amount` | `models.${number}.amount`
  kind: string
  label: string
}) {
  const { t } = useTranslation('plans')
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel className="sr-only">{label}</FormLabel>
          <FormControl>
            <Input
              {...field}
              inputMode={kind === 'quota' && displayInCurrency() ? 'decimal' : 'numeric'}
              placeholder={kind === 'quota' ? (displayInCurrency() ? t('form.amountUsd') : t('form.amountUnits')) : t('form.amountRequests')}
              autoComplete="off"
            />
          </FormControl>
          <FormMessage className="text-xs" />
        </FormItem>
      )}
    />
  )
}

export function PlanWindowsField({ form }: { form: UseFormReturn<PlanFormValues> }) {
  const { t } = useTranslation('plans')
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'windows' })
  const rows = useWatch({ control: form.control, name: 'windows' })
  const error = form.formState.errors.windows?.root?.message ?? form.formState.errors.windows?.message
  return (
    <fieldset className="grid gap-2" data-testid="plan-windows-field">
      <legend className="mb-1 text-sm font-medium">{t('fields.windows')}</legend>
      <p className="text-xs text-muted-foreground">{t('form.windowsHint')}</p>
      {fields.map((f, i) => (
        <div key={f.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2 sm:grid-cols-[8rem_9rem_1fr_auto]" data-testid="plan-window-row">
          <EnumSelect control={form.control} name={`windows.${i}.period`} values={PLAN_PERIODS} label={(p) => t(`periodly.${p}`)} title={t('form.period')} hideLabel />
          <EnumSelect control={form.control} name={`windows.${i}.kind`} values={WINDOW_KINDS} label={(k) => kindLabel(t, k)} title={t('form.kind')} hideLabel />
          <div className="col-span-2 row-start-2 sm:col-span-1 sm:row-start-auto">
            <AmountInput form={form} name={`windows.${i}.amount`} kind={rows?.[i]?.kind ?? 'requests'} label={t('form.amount')} />
          </div>
          <Button type="button" variant="ghost" size="icon" aria-label={t('form.removeWindow', { index: i + 1 })} onClick={() => remove(i)}>
            <Trash2 />
          </Button>
        </div>
      ))}
      {error && <p className="text-sm text-destructive">{t(error, { ns: 'common' })}</p>}
      <Button type="button" variant="outline" size="sm" className="w-fit" disabled={fields.length >= 8} onClick={() => append(emptyWindow())} data-testid="plan-add-window">
        <Plus />
        {t('form.addWindow')}
      </Button>
    </fieldset>
  )
}
