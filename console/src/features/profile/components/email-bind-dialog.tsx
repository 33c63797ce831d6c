/**
 * Binding (or changing) the account's email: the address, 'Send code' (GET /api/verification with
 * purpose=bind, 60 s resend countdown, Turnstile when the site uses it), then the emailed code →
 * GET /api/oauth/email/bind. An address bound to someone else is refused by the server (409).
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2, Mail } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { TurnstileWidget } from '@/features/auth/components/turnstile-widget'
import { VerificationCodeButton } from '@/features/auth/components/verification-code-button'
import { useTurnstile } from '@/features/auth/use-turnstile'
import { useBindEmail } from '../api'
import { emailBindSchema, type EmailBindValues } from '../schema'

interface EmailBindDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The email bound now, if any (the dialog then changes it). */
  current: string
}

export function EmailBindDialog({ open, onOpenChange, current }: EmailBindDialogProps) {
  const { t } = useTranslation('oauth')
  const bind = useBindEmail()
  const turnstile = useTurnstile()
  const form = useForm<EmailBindValues>({ resolver: zodResolver(emailBindSchema), defaultValues: { email: '', code: '' } })

  const onSubmit = (values: EmailBindValues) =>
    bind.mutate(values, {
      onSuccess: () => {
        form.reset()
        onOpenChange(false)
      },
      onError: (err) => applyFieldErrors(form, err),
    })

  return (
    <Dialog open={open} onOpenChange={(o) => !bind.isPending && onOpenChange(o)}>
      <DialogContent className="sm:max-w-md" data-testid="email-bind-dialog">
        <DialogHeader>
          <DialogTitle>{current ? t('email.changeTitle') : t('email.title')}</DialogTitle>
          <DialogDescription>{current ? t('email.changeDescription', { email: current }) : t('email.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="email-bind-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="email" type="email" label={t('email.email')} autoComplete="email" autoFocus />
            <InputField
              control={form.control}
              name="code"
              label={t('email.code')}
              autoComplete="one-time-code"
              action={<VerificationCodeButton form={form} purpose="bind" turnstile={turnstile} />}
            />
            <TurnstileWidget turnstile={turnstile} />
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={bind.isPending}>
            {t('cancel')}
          </Button>
          <Button type="submit" form="email-bind-form" disabled={bind.isPending}>
            {bind.isPending ? <Loader2 className="animate-spin" /> : <Mail />}
            {t('email.submit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
