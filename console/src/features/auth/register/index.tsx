/**
 * /register: username, email (required with a code when email verification is on), password,
 * confirmation and invite code (prefilled from ?aff=). POST /api/user/register, then /login.
 */
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link, getRouteApi } from '@tanstack/react-router'
import { Loader2, UserPlus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField, PasswordField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSiteInfo } from '@/features/site/api'
import { useRegister } from '../api'
import { AuthCard } from '../components/auth-card'
import { VerificationCodeButton } from '../components/verification-code-button'
import { registerSchema, type RegisterValues } from '../schema'

const route = getRouteApi('/_public/register')

export function Register() {
  const { t } = useTranslation('auth')
  const site = useSiteInfo()
  const { aff } = route.useSearch()
  const register = useRegister()
  const emailRequired = site.email_verification
  const schema = useMemo(() => registerSchema(emailRequired), [emailRequired])
  const form = useForm<RegisterValues>({
    resolver: zodResolver(schema),
    defaultValues: { username: '', email: '', password: '', confirm_password: '', verification_code: '', aff_code: aff ?? '' },
  })
  const open = site.register_enabled && site.password_register

  const onSubmit = ({ confirm_password: _confirm, ...body }: RegisterValues) =>
    register.mutate(body, { onError: (err) => applyFieldErrors(form, err) })

  return (
    <AuthCard
      title={t('register.title')}
      description={t('register.description', { name: site.system_name })}
      footer={
        <span>
          {t('register.haveAccount')}{' '}
          <Link to="/login" className="font-medium text-primary hover:underline">
            {t('register.login')}
          </Link>
        </span>
      }
    >
      {open ? (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="username" label={t('fields.username')} autoComplete="username" />
            <InputField
              control={form.control}
              name="email"
              label={t('fields.email')}
              optional={!emailRequired}
              type="email"
              autoComplete="email"
            />
            {emailRequired && (
              <InputField
                control={form.control}
                name="verification_code"
                label={t('fields.verificationCode')}
                autoComplete="one-time-code"
                action={<VerificationCodeButton form={form} />}
              />
            )}
            <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="new-password" />
            <PasswordField
              control={form.control}
              name="confirm_password"
              label={t('fields.confirmPassword')}
              autoComplete="new-password"
            />
            <InputField control={form.control} name="aff_code" label={t('fields.inviteCode')} optional />
            <Button type="submit" className="mt-2 w-full" disabled={register.isPending}>
              {register.isPending ? <Loader2 className="animate-spin" /> : <UserPlus />}
              {t('register.submit')}
            </Button>
          </form>
        </Form>
      ) : (
        <Alert variant="warning">
          <AlertDescription>{t('register.closed')}</AlertDescription>
        </Alert>
      )}
    </AuthCard>
  )
}
