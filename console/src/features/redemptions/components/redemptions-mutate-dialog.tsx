/**
 * Create a batch of redemption codes (name, quota each, count 1–100) or edit one unused/disabled
 * code (name, quota). The quota is entered in dollars when the site shows currency. After a
 * create, the plain codes go to the keys dialog — the only time they are shown.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { displayInCurrency, inputToQuota, quotaPerUnit, quotaToInput } from '@/lib/format'
import { applyFieldErrors } from '@/lib/handle-error'
import { useCreateRedemptions, useUpdateRedemption, type Redemption } from '../api'
import { redemptionFormSchema, type RedemptionFormValues } from '../schema'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  row?: Redemption
  onCreated: (keys: string[], name: string) => void
}

export function RedemptionsMutateDialog({ open, onOpenChange, row, onCreated }: Props) {
  const { t } = useTranslation('redemptions')
  const edit = !!row
  const currency = displayInCurrency()
  const create = useCreateRedemptions()
  const update = useUpdateRedemption()
  const pending = create.isPending || update.isPending
  const form = useForm<RedemptionFormValues>({
    resolver: zodResolver(redemptionFormSchema({ edit, currency })),
    defaultValues: { name: row?.name ?? '', quota: String(row ? quotaToInput(row.quota) : ''), count: '1' },
  })

  const onSubmit = (v: RedemptionFormValues) => {
    const quota = inputToQuota(Number(v.quota))
    const onError = (err: unknown) => applyFieldErrors(form, err)
    if (row) {
      update.mutate({ id: row.id, name: v.name, quota, status: row.status === 2 ? 2 : 1 }, { onSuccess: () => onOpenChange(false), onError })
      return
    }
    create.mutate({ name: v.name, quota, count: Number(v.count) }, { onSuccess: (keys) => onCreated(keys, v.name), onError })
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <DialogContent data-testid="redemption-form-dialog">
        <DialogHeader>
          <DialogTitle>{edit ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{edit ? t('form.editDescription') : t('form.createDescription')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="redemption-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="name" label={t('fields.name')} description={t('form.nameHint')} autoComplete="off" />
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField
                control={form.control}
                name="quota"
                inputMode="decimal"
                label={currency ? t('fields.quotaUsd') : t('fields.quotaUnits')}
                description={currency ? t('form.quotaUsdHint', { units: quotaPerUnit() }) : t('form.quotaUnitsHint')}
              />
              {!edit && <InputField control={form.control} name="count" inputMode="numeric" label={t('fields.count')} description={t('form.countHint')} />}
            </div>
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="redemption-form" disabled={pending}>
            {pending && <Loader2 className="animate-spin" />}
            {edit ? t('actions.save') : t('actions.generate')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
