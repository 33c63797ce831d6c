/**
 * "Change quota": add to or subtract from a user's balance with a remark (written as a manage
 * log) → POST /api/user/quota/:id with a signed number of units. The amount is in dollars when the
 * site shows currency. A balance that would go below zero is refused here and by the server.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { ArrowRight, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { InputField } from '@/components/form-fields'
import { displayInCurrency, inputToQuota, renderQuota } from '@/lib/format'
import { applyFieldErrors } from '@/lib/handle-error'
import { useChangeQuota } from '../api'
import { quotaChangeSchema, type QuotaChangeValues } from '../schema'
import type { AdminUser } from '@contract/users'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  row: AdminUser
}

export function UsersQuotaDialog({ open, onOpenChange, row }: Props) {
  const { t } = useTranslation('users')
  const currency = displayInCurrency()
  const change = useChangeQuota()
  const form = useForm<QuotaChangeValues>({
    resolver: zodResolver(quotaChangeSchema(currency)),
    defaultValues: { mode: 'add', amount: '', remark: '' },
  })
  const [mode, amount] = useWatch({ control: form.control, name: ['mode', 'amount'] })
  const parsed = Number(amount)
  const delta = amount.trim() !== '' && Number.isFinite(parsed) && parsed > 0 ? inputToQuota(parsed) * (mode === 'subtract' ? -1 : 1) : 0
  const after = row.quota + delta

  const onSubmit = (v: QuotaChangeValues) => {
    const units = inputToQuota(Number(v.amount))
    if (units === 0) return form.setError('amount', { message: 'users:validation.amountPositive' })
    const signed = v.mode === 'subtract' ? -units : units
    if (row.quota + signed < 0) return form.setError('amount', { message: 'users:validation.belowZero' })
    change.mutate({ id: row.id, quota: signed, remark: v.remark }, { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) })
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !change.isPending && onOpenChange(o)}>
      <DialogContent data-testid="quota-dialog">
        <DialogHeader>
          <DialogTitle>{t('quota.title')}</DialogTitle>
          <DialogDescription>{t('quota.description', { name: row.username })}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="quota-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <FormField
              control={form.control}
              name="mode"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('quota.mode')}</FormLabel>
                  <Tabs value={field.value} onValueChange={field.onChange}>
                    <TabsList className="w-full">
                      <TabsTrigger value="add">{t('quota.add')}</TabsTrigger>
                      <TabsTrigger value="subtract">{t('quota.subtract')}</TabsTrigger>
                    </TabsList>
                  </Tabs>
                </FormItem>
              )}
            />
            <InputField control={form.control} name="amount" inputMode="decimal" autoFocus label={currency ? t('quota.amountUsd') : t('quota.amountUnits')} />
            <InputField control={form.control} name="remark" label={t('quota.remark')} optional placeholder={t('quota.remarkPlaceholder')} />
          </form>
        </Form>
        <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm" data-testid="quota-preview">
          <span className="text-muted-foreground">{t('quota.current')}</span>
          <span className="font-medium tabular-nums">{renderQuota(row.quota)}</span>
          <ArrowRight className="size-4 text-muted-foreground" />
          <span className={after < 0 ? 'font-medium text-destructive tabular-nums' : 'font-medium tabular-nums'}>{after < 0 ? `-${renderQuota(-after)}` : renderQuota(after)}</span>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={change.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="quota-form" disabled={change.isPending}>
            {change.isPending && <Loader2 className="animate-spin" />}
            {t('quota.submit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
