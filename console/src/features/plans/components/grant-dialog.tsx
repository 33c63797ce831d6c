/**
 * Grant a plan to a user without payment: the user's id and the plan (preset when opened from a
 * plan's row). One idempotency key per opened dialog, so a retried submit grants once.
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { InputField } from '@/components/form-fields'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { applyFieldErrors } from '@/lib/handle-error'
import { type Plan, plansQueryOptions, useGrantPlan } from '../api'
import { type GrantFormValues, grantFormSchema } from '../schema'
import { EnumSelect } from './enum-select'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  plan?: Plan
  /** Preset user (from the users page). */
  userId?: number
}

export function GrantDialog({ open, onOpenChange, plan, userId }: Props) {
  const { t } = useTranslation('plans')
  const grant = useGrantPlan()
  const plans = useQuery({ ...plansQueryOptions, enabled: open })
  const [key] = useState(() => crypto.randomUUID())
  const form = useForm<GrantFormValues>({
    resolver: zodResolver(grantFormSchema),
    defaultValues: { user_id: userId ? String(userId) : '', plan_id: plan ? String(plan.id) : '' },
  })
  const names = new Map((plans.data ?? []).map((p) => [String(p.id), p.name]))
  if (plan) names.set(String(plan.id), plan.name)
  const onSubmit = (v: GrantFormValues) =>
    grant.mutate(
      { user_id: Number(v.user_id), plan_id: Number(v.plan_id), key: `grant-${key}` },
      { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) }
    )

  return (
    <Dialog open={open} onOpenChange={(o) => !grant.isPending && onOpenChange(o)}>
      <DialogContent data-testid="plan-grant-dialog">
        <DialogHeader>
          <DialogTitle>{t('grant.title')}</DialogTitle>
          <DialogDescription>{t('grant.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="plan-grant-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="user_id" label={t('grant.userId')} inputMode="numeric" autoComplete="off" readOnly={!!userId} />
            <EnumSelect
              control={form.control}
              name="plan_id"
              values={[...names.keys()]}
              label={(id) => `#${id} ${names.get(id) ?? ''}`}
              title={t('grant.plan')}
              placeholder={t('grant.planPlaceholder')}
            />
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={grant.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="plan-grant-form" disabled={grant.isPending} data-testid="plan-grant-save">
            {grant.isPending && <Loader2 className="animate-spin" />}
            {t('actions.grant')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
