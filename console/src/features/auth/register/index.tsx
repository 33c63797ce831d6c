/**
 * /register: username, email (required with a code when email verification is on), password,
 * confirmation and invite code (prefilled from ?aff=). POST /api/user/register, then /login.
 * The code and the registration carry the Turnstile token when the site asks for one. Closed
 * registration says so; with password registration off, the external methods (which create the
 * account on the first sign-in) remain.
 */
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link, getRouteApi } from '@tanstack/react-router'
import { Info, Loader2, UserPlus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField, PasswordField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { OAuthButtons } from '@/features/oauth/components/oauth-buttons'
import { enabledMethods } from '@/features/oauth/providers'
import { useSiteInfo } from '@/features/site/api'
import { useRegister } from '../api'
import { AuthCard } from '../components/auth-card'
import { TurnstileWidget } from '../components/turnstile-widget'
import { VerificationCodeButton } from '../components/verification-code-button'
import { registerSchema, type RegisterValues } from '../schema'
import { useTurnstile } from '../use-turnstile'

const route = getRouteApi('/_public/register')

export function Register() {
  const { t } = useTranslation('auth')
  const { t: to } = useTranslation('oauth')
  const site = useSiteInfo()
  const turnstile = useTurnstile()
  const { aff } = route.useSearch()
  const register = useRegister()
  const emailRequired = site.email_verification
  const schema = useMemo(() => registerSchema(emailRequired), [emailRequired])
  const form = useForm<RegisterValues>({
    resolver: zodResolver(schema),
    defaultValues: { username: '', email: '', password: '', confirm_password: '', verification_code: '', aff_code: aff ?? '' },
  })
  const passwordOpen = site.register_enabled && site.password_register
  const externalOpen = site.register_enabled && enabledMethods(site).length > 0

  const onSubmit = ({ confirm_password: _confirm, ...body }: RegisterValues) => {
    if (!turnstile.check()) return
    register.mutate(
      { ...body, turnstile: turnstile.token },
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
      <div className="grid gap-6">
        {passwordOpen && (
          <Form {...form}>
            <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
              <InputField control={form.control} name="username" label={t('fields.username')} autoComplete="username" />
              <InputField control={form.control} name="email" label={t('fields.email')} optional={!emailRequired} type="email" autoComplete="email" />
              {emailRequired && (
                <InputField
                  control={form.control}
                  name="verification_code"
                  label={t('fields.verificationCode')}
                  autoComplete="one-time-code"
                  action={<VerificationCodeButton form={form} turnstile={turnstile} />}
                />
              )}
              <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="new-password" />
              <PasswordField control={form.control} name="confirm_password" label={t('fields.confirmPassword')} autoComplete="new-password" />
              <InputField control={form.control} name="aff_code" label={t('fields.inviteCode')} optional />
              <TurnstileWidget turnstile={turnstile} />
              <Button type="submit" className="mt-2 w-full" disabled={register.isPending}>
                {register.isPending ? <Loader2 className="animate-spin" /> : <UserPlus />}
                {t('register.submit')}
              </Button>
            </form>
          </Form>
        )}
        {!passwordOpen && externalOpen && (
          <Alert>
            <Info />
            <AlertDescription>{to('register.passwordClosed')}</AlertDescription>
          </Alert>
        )}
        {externalOpen && <OAuthButtons divider={passwordOpen ? to('orSignUpWith') : undefined} />}
        {!passwordOpen && !externalOpen && (
          <Alert variant="warning" data-testid="register-closed">
            <AlertDescription>{t('register.closed')}</AlertDescription>
          </Alert>
        )}
      </div>
    </AuthCard>
  )
}
