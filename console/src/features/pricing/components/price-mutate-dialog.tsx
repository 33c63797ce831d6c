/**
 * New / edit price: model name (unique, trailing wildcard allowed) and the price fields →
 * POST /api/prices/single or PUT /api/prices/single/<model>. A name another price already has is
 * refused in the form; the server's 409 lands on the same field.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/handle-error'
import { useCreatePrice, useUpdatePrice, type Price } from '../api'
import { NO_TIER, priceFormSchema, ratiosToRows, tierToValues, toPriceFields, type PriceFormValues } from '../schema'
import { PriceFields } from './price-fields'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  price?: Price
  /** Prefilled model name for a new price (from the unpriced-models warning). */
  model?: string
  prices: Price[]
}

export function PriceMutateDialog({ open, onOpenChange, price, model, prices }: Props) {
  const { t } = useTranslation('pricing')
  const create = useCreatePrice()
  const update = useUpdatePrice()
  const pending = create.isPending || update.isPending
  const taken = new Set(prices.map((p) => p.model).filter((m) => m !== price?.model))
  const form = useForm<PriceFormValues>({
    resolver: zodResolver(priceFormSchema((m) => taken.has(m.trim()))),
    defaultValues: price
      ? {
          model: price.model,
          type: price.type,
          channel_type: String(price.channel_type),
          input: String(price.input),
          output: String(price.output),
          locked: price.locked,
          extra_ratios: ratiosToRows(price.extra_ratios),
          ...tierToValues(price),
        }
      : { model: model ?? '', type: 'tokens', channel_type: '', input: '', output: '', locked: false, extra_ratios: [], ...NO_TIER },
  })

  const onSubmit = (v: PriceFormValues) => {
    const body = { model: v.model, ...toPriceFields(v) }
    const options = {
      onSuccess: () => onOpenChange(false),
      onError: (err: unknown) => {
        applyFieldErrors(form, err)
        if (isApiError(err) && err.code === 'conflict') form.setError('model', { type: 'server', message: err.message })
      },
    }
    if (price) update.mutate({ model: price.model, body }, options)
    else create.mutate(body, options)
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" data-testid="price-dialog">
        <DialogHeader>
          <DialogTitle>{price ? t('dialog.editTitle') : t('dialog.newTitle')}</DialogTitle>
          <DialogDescription>{t('dialog.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="price-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="model" label={t('fields.model')} description={t('fields.modelHelp')} autoComplete="off" spellCheck={false} />
            <PriceFields />
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="price-form" disabled={pending}>
            {pending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
