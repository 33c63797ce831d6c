/**
 * The plan editor's per-model items: rows of model pattern (`*` wildcards; `*` alone is every other
 * model), kind (quota, requests, or not included) and amount (none when not included).
 */
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form'
import { Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { kindLabel } from '../format'
import { emptyModel, MODEL_KINDS, type PlanFormValues } from '../schema'
import { EnumSelect } from './enum-select'
import { AmountInput } from './plan-windows-field'

export function PlanModelsField({ form }: { form: UseFormReturn<PlanFormValues> }) {
  const { t } = useTranslation('plans')
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'models' })
  const rows = useWatch({ control: form.control, name: 'models' })
  return (
    <fieldset className="grid gap-2" data-testid="plan-models-field">
      <legend className="mb-1 text-sm font-medium">{t('fields.models')}</legend>
      <p className="text-xs text-muted-foreground">{t('form.modelsHint')}</p>
      {fields.map((f, i) => {
        const kind = rows?.[i]?.kind ?? 'requests'
        return (
          <div key={f.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2 sm:grid-cols-[1fr_9rem_8rem_auto]" data-testid="plan-model-row">
            <FormField
              control={form.control}
              name={`models.${i}.pattern`}
              render={({ field }) => (
                <FormItem className="col-span-2 sm:col-span-1">
                  <FormLabel className="sr-only">{t('form.pattern')}</FormLabel>
                  <FormControl>
                    <Input {...field} placeholder="gpt-4o*" autoComplete="off" spellCheck={false} className="font-mono" />
                  </FormControl>
                  <FormMessage className="text-xs" />
                </FormItem>
              )}
            />
            <Button type="button" variant="ghost" size="icon" className="sm:order-last" aria-label={t('form.removeModel', { index: i + 1 })} onClick={() => remove(i)}>
              <Trash2 />
            </Button>
            <EnumSelect control={form.control} name={`models.${i}.kind`} values={MODEL_KINDS} label={(k) => kindLabel(t, k)} title={t('form.kind')} hideLabel />
            {kind === 'excluded' ? <span /> : <AmountInput form={form} name={`models.${i}.amount`} kind={kind} label={t('form.amount')} />}
          </div>
        )
      })}
      <Button type="button" variant="outline" size="sm" className="w-fit" disabled={fields.length >= 64} onClick={() => append(emptyModel())} data-testid="plan-add-model">
        <Plus />
        {t('form.addModel')}
      </Button>
    </fieldset>
  )
}
