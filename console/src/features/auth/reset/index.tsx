/** /reset: request a password-reset email (GET /api/reset_password?email=…, with the Turnstile token when the site asks for one). */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from '@tanstack/react-router'
import { Loader2, MailCheck, Send } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSendResetEmail } from '../api'
import { AuthCard } from '../components/auth-card'
import { TurnstileWidget } from '../components/turnstile-widget'
import { resetRequestSchema, type ResetRequestValues } from '../schema'
import { useTurnstile } from '../use-turnstile'

export function ResetRequest() {
  const { t } = useTranslation('auth')
  const send = useSendResetEmail()
  const turnstile = useTurnstile()
  const form = useForm<ResetRequestValues>({ resolver: zodResolver(resetRequestSchema), defaultValues: { email: '' } })
  const onSubmit = ({ email }: ResetRequestValues) => {
    if (!turnstile.check()) return
    send.mutate(
      { email, turnstile: turnstile.token },
      {
        onError: (err) => {
          applyFieldErrors(form, err)
          if (turnstile.token) turnstile.reset()
        },
      }
    )
  }

  return (
    <AuthCard
      title={t('reset.title')}
      description={t('reset.description')}
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          {t('reset.backToLogin')}
        </Link>
      }
    >
      {send.isSuccess ? (
        <Alert>
          <MailCheck />
          <AlertTitle>{t('reset.sent')}</AlertTitle>
          <AlertDescription>{t('reset.sentHint', { email: send.variables.email })}</AlertDescription>
        </Alert>
      ) : (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="email" label={t('fields.email')} type="email" autoComplete="email" autoFocus />
            <TurnstileWidget turnstile={turnstile} />
            <Button type="submit" className="mt-2 w-full" disabled={send.isPending}>
              {send.isPending ? <Loader2 className="animate-spin" /> : <Send />}
              {t('reset.submit')}
            </Button>
          </form>
        </Form>
      )}
    </AuthCard>
  )
}
