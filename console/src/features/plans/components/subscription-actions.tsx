/**
 * An administrator's actions on one subscription: revoke (optionally refunding to the balance,
 * which the server computes) and extend by hours … years. Each opens its own small dialog.
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Ban, CalendarPlus, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { InputField } from '@/components/form-fields'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { Label } from '@/components/ui/label'
import { type SubscriptionView, useExtendSubscription, useRevokeSubscription } from '../api'
import { EXTEND_UNITS, type ExtendFormValues, extendFormSchema } from '../schema'
import { EnumSelect } from './enum-select'

interface DialogProps {
  sub: SubscriptionView
  open: boolean
  onOpenChange: (open: boolean) => void
}

function RevokeDialog({ sub, open, onOpenChange }: DialogProps) {
  const { t } = useTranslation('plans')
  const revoke = useRevokeSubscription()
  const [refund, setRefund] = useState(false)
  return (
    <Dialog open={open} onOpenChange={(o) => !revoke.isPending && onOpenChange(o)}>
      <DialogContent data-testid="subscription-revoke-dialog">
        <DialogHeader>
          <DialogTitle>{t('revoke.title', { name: sub.name })}</DialogTitle>
          <DialogDescription>{t('revoke.description')}</DialogDescription>
        </DialogHeader>
        <div className="flex items-start gap-2">
          <Checkbox id={`refund-${sub.id}`} checked={refund} onCheckedChange={(c) => setRefund(c === true)} />
          <div className="grid gap-1">
            <Label htmlFor={`refund-${sub.id}`}>{t('revoke.refund')}</Label>
            <p className="text-xs text-muted-foreground">{t('revoke.refundHint')}</p>
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={revoke.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button variant="destructive" disabled={revoke.isPending} onClick={() => revoke.mutate({ subscription_id: sub.id, refund }, { onSuccess: () => onOpenChange(false) })}>
            {revoke.isPending && <Loader2 className="animate-spin" />}
            {t('actions.revoke')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

function ExtendDialog({ sub, open, onOpenChange }: DialogProps) {
  const { t } = useTranslation('plans')
  const extend = useExtendSubscription()
  const form = useForm<ExtendFormValues>({ resolver: zodResolver(extendFormSchema), defaultValues: { duration_unit: 'month', duration_count: '1' } })
  const onSubmit = (v: ExtendFormValues) =>
    extend.mutate({ subscription_id: sub.id, duration_unit: v.duration_unit, duration_count: Number(v.duration_count) }, { onSuccess: () => onOpenChange(false) })
  return (
    <Dialog open={open} onOpenChange={(o) => !extend.isPending && onOpenChange(o)}>
      <DialogContent data-testid="subscription-extend-dialog">
        <DialogHeader>
          <DialogTitle>{t('extend.title', { name: sub.name })}</DialogTitle>
          <DialogDescription>{t('extend.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id={`extend-form-${sub.id}`} onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4 sm:grid-cols-2" noValidate>
            <InputField control={form.control} name="duration_count" label={t('fields.durationCount')} inputMode="numeric" autoComplete="off" />
            <EnumSelect control={form.control} name="duration_unit" values={EXTEND_UNITS} label={(u) => t(`unit.${u}`)} title={t('extend.unit')} />
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={extend.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form={`extend-form-${sub.id}`} disabled={extend.isPending}>
            {extend.isPending && <Loader2 className="animate-spin" />}
            {t('actions.extend')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

export function SubscriptionActions({ sub }: { sub: SubscriptionView }) {
  const { t } = useTranslation('plans')
  const [open, setOpen] = useState<'revoke' | 'extend' | null>(null)
  const close = (o: boolean) => !o && setOpen(null)
  return (
    <div className="flex gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={t('actions.extendOne', { name: sub.name })}
        title={t('actions.extend')}
        onClick={() => setOpen('extend')}
        data-testid={`subscription-extend-${sub.id}`}
      >
        <CalendarPlus />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-destructive hover:text-destructive"
        aria-label={t('actions.revokeOne', { name: sub.name })}
        title={t('actions.revoke')}
        onClick={() => setOpen('revoke')}
        data-testid={`subscription-revoke-${sub.id}`}
      >
        <Ban />
      </Button>
      {open === 'revoke' && <RevokeDialog sub={sub} open onOpenChange={close} />}
      {open === 'extend' && <ExtendDialog sub={sub} open onOpenChange={close} />}
    </div>
  )
}
