/**
 * /login: username-or-email and password (POST /api/user/login, with the Turnstile
 * token when the site asks for one) and, below, the external methods enabled in the site info
 * (GitHub, OIDC, Lark, WeChat), and "Sign in with a passkey" (usernameless WebAuthn). Without password
 * login only the passkey and external methods are shown. While a sign-in waits for its second
 * factor, the code prompt replaces them all (second-factor.tsx).
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from '@tanstack/react-router'
import { Loader2, LogIn } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField, PasswordField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { OAuthButtons } from '@/features/oauth/components/oauth-buttons'
import { enabledMethods } from '@/features/oauth/providers'
import { useSiteInfo } from '@/features/site/api'
import { PasskeySignInButton } from '@/features/passkeys/components/passkey-sign-in-button'
import { useCompleteSignIn, useLogin } from '../api'
import { SecondFactorForm, secondFactorPending } from '../second-factor'
import { AuthCard } from '../components/auth-card'
import { TurnstileWidget } from '../components/turnstile-widget'
import { loginSchema, type LoginValues } from '../schema'
import { useTurnstile } from '../use-turnstile'

export function Login() {
  const { t } = useTranslation('auth')
  const { t: to } = useTranslation('oauth')
  const site = useSiteInfo()
  const login = useLogin()
  const turnstile = useTurnstile()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } })
  const external = enabledMethods(site).length > 0
  const complete = useCompleteSignIn()
  const [pending, setPending] = useState(secondFactorPending)

  const onSubmit = (values: LoginValues) => {
    if (!turnstile.check()) return
    login.mutate(
      { ...values, turnstile: turnstile.token },
      {
        onSuccess: () => setPending(secondFactorPending()),
        onError: (err) => {
          applyFieldErrors(form, err)
          if (turnstile.token) turnstile.reset()
        },
      }
    )
  }

  if (pending) {
    return (
      <AuthCard title={t('twoFactor.title')} description={t('twoFactor.description')}>
        <SecondFactorForm onDone={complete} onCancel={() => setPending(false)} />
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title={t('login.title', { name: site.system_name })}
      description={site.password_login ? t('login.description') : external ? to('login.chooseMethod') : undefined}
      footer={
        site.register_enabled && (
          <span>
            {t('login.noAccount')}{' '}
            <Link to="/register" className="font-medium text-primary hover:underline">
              {t('login.register')}
            </Link>
          </span>
        )
      }
    >
      <div className="grid gap-6">
        {site.password_login && (
          <Form {...form}>
            <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
              <InputField control={form.control} name="username" label={t('fields.usernameOrEmail')} autoComplete="username" autoFocus />
              <div className="grid gap-1.5">
                <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="current-password" />
                <Link to="/reset" className="justify-self-end text-xs text-muted-foreground hover:text-primary hover:underline">
                  {t('login.forgot')}
                </Link>
              </div>
              <TurnstileWidget turnstile={turnstile} />
              <Button type="submit" className="mt-2 w-full" disabled={login.isPending}>
                {login.isPending ? <Loader2 className="animate-spin" /> : <LogIn />}
                {t('login.submit')}
              </Button>
            </form>
          </Form>
        )}
        <PasskeySignInButton />
        <OAuthButtons divider={site.password_login ? to('orContinueWith') : undefined} />
        {!site.password_login && !external && (
          <Alert variant="warning">
            <AlertDescription>{t('login.passwordLoginDisabled')}</AlertDescription>
          </Alert>
        )}
      </div>
    </AuthCard>
  )
}
