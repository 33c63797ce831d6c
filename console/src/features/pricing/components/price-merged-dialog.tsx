/**
 * Edit a merged group: its model list (remove a chip to delete that price, type or paste names to
 * add prices) and the one price they share → POST /api/prices/multiple with the original models.
 * Models priced outside the group are refused here so one model never has two prices.
 */
import { useState } from 'react'
import { useForm, useFormContext, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSaveMerged, type Price } from '../api'
import type { PriceGroup } from '../price-groups'
import { isValidModelName, mergedFormSchema, ratiosToRows, tierToValues, toPriceFields, type MergedFormValues } from '../schema'
import { PriceFields } from './price-fields'

function ModelsInput({ taken }: { taken: (m: string) => boolean }) {
  const { t } = useTranslation('pricing')
  const { control, setValue } = useFormContext<MergedFormValues>()
  const models = useWatch({ control, name: 'models' })
  const [text, setText] = useState('')
  const add = () => {
    const names = text
      .split(/[\s,]+/)
      .map((m) => m.trim())
      .filter(Boolean)
    if (!names.length) return
    setValue('models', [...new Set([...models, ...names])], { shouldDirty: true, shouldValidate: true })
    setText('')
  }
  const remove = (m: string) =>
    setValue(
      'models',
      models.filter((x) => x !== m),
      { shouldDirty: true, shouldValidate: true }
    )
  return (
    <FormField
      control={control}
      name="models"
      render={() => (
        <FormItem>
          <FormLabel>{t('fields.models')}</FormLabel>
          <div className="flex flex-wrap gap-1.5 rounded-md border p-2" data-testid="merged-models">
            {models.map((m) => {
              const bad = !isValidModelName(m) || taken(m)
              return (
                <Badge key={m} variant={bad ? 'destructive' : 'secondary'} className="gap-1 pr-1 font-mono font-normal">
                  {m}
                  <button
                    type="button"
                    className="rounded-sm opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    aria-label={t('merged.removeModel', { model: m })}
                    onClick={() => remove(m)}
                  >
                    <X className="size-3" />
                  </button>
                </Badge>
              )
            })}
            {models.length === 0 && <span className="px-1 text-sm text-muted-foreground">{t('merged.noModels')}</span>}
          </div>
          <div className="flex gap-2">
            <FormControl>
              <Input
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ',') {
                    e.preventDefault()
                    add()
                  }
                }}
                onBlur={add}
                placeholder={t('merged.addPlaceholder')}
                aria-label={t('merged.addModel')}
                autoComplete="off"
                spellCheck={false}
              />
            </FormControl>
            <Button type="button" variant="outline" onClick={add}>
              {t('merged.add')}
            </Button>
          </div>
          <FormDescription>{t('merged.modelsHelp')}</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  )
}

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  group: PriceGroup
  prices: Price[]
}

export function PriceMergedDialog({ open, onOpenChange, group, prices }: Props) {
  const { t } = useTranslation('pricing')
  const save = useSaveMerged()
  const inGroup = new Set(group.models)
  const elsewhere = new Set(prices.map((p) => p.model).filter((m) => !inGroup.has(m)))
  const taken = (m: string) => elsewhere.has(m)
  const form = useForm<MergedFormValues>({
    resolver: zodResolver(mergedFormSchema(taken)),
    defaultValues: {
      models: group.models,
      type: group.type,
      channel_type: String(group.channel_type),
      input: String(group.input),
      output: String(group.output),
      locked: group.locked === group.models.length,
      extra_ratios: ratiosToRows(group.extra_ratios),
      ...tierToValues(group),
    },
  })
  const onSubmit = (v: MergedFormValues) =>
    save.mutate({ original_models: group.models, models: v.models, ...toPriceFields(v) }, { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) })
  const models = useWatch({ control: form.control, name: 'models' })
  const removed = group.models.filter((m) => !models.includes(m))

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" data-testid="merged-dialog">
        <DialogHeader>
          <DialogTitle>{t('merged.editTitle')}</DialogTitle>
          <DialogDescription>{t('merged.editDescription', { count: group.models.length })}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="merged-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <ModelsInput taken={taken} />
            {removed.length > 0 && <p className="text-sm text-destructive">{t('merged.willDelete', { models: removed.join(', ') })}</p>}
            <PriceFields />
            {group.locked > 0 && group.locked < group.models.length && (
              <p className="text-sm text-muted-foreground">{t('merged.mixedLocks', { locked: group.locked, count: group.models.length })}</p>
            )}
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="merged-form" disabled={save.isPending}>
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
