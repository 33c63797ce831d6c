/**
 * The limits and budget fields of the token dialog (also the user dialog's ceilings): RPM, TPM,
 * concurrency, the budget period and amount with the current period's use as a progress bar, and
 * per-model limits. Form logic: lib/limits-form.ts.
 */
import type { Control, FieldValues, Path } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { InputField, TextareaField } from '@/components/form-fields'
import { displayInCurrency, quotaPerUnit, renderQuota } from '@/lib/format'
import type { BudgetUse } from '@contract/tokens'
import { BUDGET_PERIODS, budgetPercent, type LimitsFormValues } from '@/lib/limits-form'

interface Props<T extends FieldValues & LimitsFormValues> {
  control: Control<T>
  /** Show the budget's use in the current period (an existing token). */
  use?: BudgetUse | null
  /** The fields are the user's ceilings for their tokens. */
  defaults?: boolean
}

/** The budget's use in its period as a bar; `compact` (table cells) shows "used / quota" with the reset time as a tooltip. */
export function BudgetBar({ use, className, compact }: { use: BudgetUse; className?: string; compact?: boolean }) {
  const { t } = useTranslation('tokens')
  const pct = budgetPercent(use)
  const text = t('limits.budgetUsed', { used: renderQuota(use.used), quota: renderQuota(use.quota), reset: new Date(use.end).toLocaleString() })
  return (
    <div className={className} title={compact ? text : undefined}>
      <div
        role="progressbar"
        aria-label={t('limits.budgetUse')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={pct >= 100 ? 'h-full bg-destructive' : 'h-full bg-primary'} style={{ width: `${pct}%` }} />
      </div>
      <p className="mt-1 text-xs text-muted-foreground tabular-nums">{compact ? `${renderQuota(use.used)} / ${renderQuota(use.quota)}` : text}</p>
    </div>
  )
}

export function TokenLimitsFields<T extends FieldValues & LimitsFormValues>({ control, use, defaults }: Props<T>) {
  const { t } = useTranslation('tokens')
  const currency = displayInCurrency()
  const name = (n: keyof LimitsFormValues) => n as unknown as Path<T>
  const zero = defaults ? t('limits.zeroNone') : t('limits.zeroInherit')
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3" data-testid="token-limits">
      <legend className="px-1 text-sm font-medium">{defaults ? t('limits.defaultsTitle') : t('limits.title')}</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <InputField control={control} name={name('rpm_limit')} type="number" inputMode="numeric" min={0} step={1} label={t('limits.rpm')} placeholder="0" />
        <InputField control={control} name={name('tpm_limit')} type="number" inputMode="numeric" min={0} step={1} label={t('limits.tpm')} placeholder="0" />
        <InputField control={control} name={name('concurrency_limit')} type="number" inputMode="numeric" min={0} step={1} label={t('limits.concurrency')} placeholder="0" />
      </div>
      <p className="text-xs text-muted-foreground">{zero}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          control={control}
          name={name('budget_period')}
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('limits.budgetPeriod')}</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger data-testid="token-budget-period">
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {BUDGET_PERIODS.map((p) => (
                    <SelectItem key={p} value={p}>
                      {t(`limits.period.${p}`)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormDescription>{t('limits.budgetPeriodHint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <InputField
          control={control}
          name={name('budget_quota')}
          type="number"
          inputMode="decimal"
          min={0}
          step={currency ? 0.01 : 1}
          label={currency ? t('limits.budgetUsd') : t('limits.budgetUnits')}
          description={currency ? t('form.quotaUsdHint', { units: quotaPerUnit() }) : undefined}
        />
      </div>
      {use && <BudgetBar use={use} />}
      <TextareaField
        control={control}
        name={name('model_limits')}
        label={t('limits.modelLimits')}
        rows={2}
        textareaClassName="font-mono text-xs"
        spellCheck={false}
        placeholder={'gpt-4o* 60 100000\nclaude-3-5-sonnet 10 0'}
        description={t('limits.modelLimitsHint')}
      />
    </fieldset>
  )
}
