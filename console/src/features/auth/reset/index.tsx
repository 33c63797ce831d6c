/** /reset: request a password-reset email (GET /api/reset_password?email=…). */
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
import { resetRequestSchema, type ResetRequestValues } from '../schema'

export function ResetRequest() {
  const { t } = useTranslation('auth')
  const send = useSendResetEmail()
  const form = useForm<ResetRequestValues>({ resolver: zodResolver(resetRequestSchema), defaultValues: { email: '' } })
  const onSubmit = ({ email }: ResetRequestValues) => send.mutate(email, { onError: (err) => applyFieldErrors(form, err) })

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
          <AlertDescription>{t('reset.sentHint', { email: send.variables })}</AlertDescription>
        </Alert>
      ) : (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="email" label={t('fields.email')} type="email" autoComplete="email" autoFocus />
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
