/** /login: username-or-email and password (POST /api/user/login), then /panel. */
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
import { useSiteInfo } from '@/features/site/api'
import { useLogin } from '../api'
import { AuthCard } from '../components/auth-card'
import { loginSchema, type LoginValues } from '../schema'

export function Login() {
  const { t } = useTranslation('auth')
  const site = useSiteInfo()
  const login = useLogin()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } })
  const canRegister = site.register_enabled && site.password_register

  const onSubmit = (values: LoginValues) => login.mutate(values, { onError: (err) => applyFieldErrors(form, err) })

  return (
    <AuthCard
      title={t('login.title', { name: site.system_name })}
      description={t('login.description')}
      footer={
        canRegister && (
          <span>
            {t('login.noAccount')}{' '}
            <Link to="/register" className="font-medium text-primary hover:underline">
              {t('login.register')}
            </Link>
          </span>
        )
      }
    >
      {site.password_login ? (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField control={form.control} name="username" label={t('fields.usernameOrEmail')} autoComplete="username" autoFocus />
            <div className="grid gap-1.5">
              <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="current-password" />
              <Link to="/reset" className="justify-self-end text-xs text-muted-foreground hover:text-primary hover:underline">
                {t('login.forgot')}
              </Link>
            </div>
            <Button type="submit" className="mt-2 w-full" disabled={login.isPending}>
              {login.isPending ? <Loader2 className="animate-spin" /> : <LogIn />}
              {t('login.submit')}
            </Button>
          </form>
        </Form>
      ) : (
        <Alert variant="warning">
          <AlertDescription>{t('login.passwordLoginDisabled')}</AlertDescription>
        </Alert>
      )}
    </AuthCard>
  )
}
