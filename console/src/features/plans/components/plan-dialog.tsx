/**
 * Create or edit a plan: name, description, USD price, duration (unit × count, or unlimited), the
 * usage windows, the per-model items, group and channel tags, balance fallback, the purchase limit
 * per user, priority and published. Checked with the shared plan schema before it is sent.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { InputField, SwitchField, TextareaField } from '@/components/form-fields'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { Separator } from '@/components/ui/separator'
import { applyFieldErrors } from '@/lib/handle-error'
import { PLAN_DURATION_UNITS } from '@contract/plans'
import { type Plan, useSavePlan } from '../api'
import { formDefaults, planFormSchema, type PlanFormValues, toBody } from '../schema'
import { EnumSelect } from './enum-select'
import { PlanModelsField } from './plan-models-field'
import { PlanScopeFields } from './plan-scope-fields'
import { PlanWindowsField } from './plan-windows-field'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  plan?: Plan
}

export function PlanDialog({ open, onOpenChange, plan }: Props) {
  const { t } = useTranslation('plans')
  const save = useSavePlan()
  const form = useForm<PlanFormValues>({ resolver: zodResolver(planFormSchema), defaultValues: formDefaults(plan) })
  const unit = useWatch({ control: form.control, name: 'duration_unit' })
  const onSubmit = (v: PlanFormValues) => save.mutate({ id: plan?.id, body: toBody(v) }, { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) })

  return (
    <Dialog open={open} onOpenChange={(o) => !save.isPending && onOpenChange(o)}>
      <DialogContent data-testid="plan-dialog" className="max-h-[92vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{plan ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{t('form.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="plan-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <InputField control={form.control} name="name" label={t('fields.name')} autoComplete="off" />
              <InputField
                control={form.control}
                name="price"
                label={t('fields.priceUsd')}
                inputMode="decimal"
                autoComplete="off"
                placeholder="9.90"
                description={t('form.priceHint')}
              />
            </div>
            <TextareaField control={form.control} name="description" label={t('fields.description')} textareaClassName="min-h-16" />
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <EnumSelect control={form.control} name="duration_unit" values={PLAN_DURATION_UNITS} label={(u) => t(`unit.${u}`)} title={t('fields.duration')} />
              {unit !== 'unlimited' && <InputField control={form.control} name="duration_count" label={t('fields.durationCount')} inputMode="numeric" autoComplete="off" />}
            </div>
            <Separator />
            <PlanWindowsField form={form} />
            <Separator />
            <PlanModelsField form={form} />
            <Separator />
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <PlanScopeFields form={form} open={open} />
              <InputField control={form.control} name="max_per_user" label={t('fields.maxPerUser')} inputMode="numeric" description={t('form.maxPerUserHint')} autoComplete="off" />
              <InputField control={form.control} name="priority" label={t('fields.priority')} inputMode="numeric" description={t('form.priorityHint')} autoComplete="off" />
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <SwitchField control={form.control} name="allow_balance_fallback" label={t('fields.fallback')} description={t('form.fallbackHint')} />
              <SwitchField control={form.control} name="published" label={t('fields.published')} description={t('form.publishedHint')} />
            </div>
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="plan-form" disabled={save.isPending} data-testid="plan-save">
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
