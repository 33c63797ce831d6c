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
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { PasswordInput } from '@/components/password-input'
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

  const optional = <span className="font-normal text-muted-foreground">{t('fields.optional')}</span>
  const text = (name: 'username' | 'aff_code', label: string, autoComplete?: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>
            {label}
            {name === 'aff_code' && optional}
          </FormLabel>
          <FormControl>
            <Input autoComplete={autoComplete} {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  )
  const password = (name: 'password' | 'confirm_password', label: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <PasswordInput autoComplete="new-password" {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  )

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
            {text('username', t('fields.username'), 'username')}
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    {t('fields.email')}
                    {!emailRequired && optional}
                  </FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="email" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            {emailRequired && (
              <FormField
                control={form.control}
                name="verification_code"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t('fields.verificationCode')}</FormLabel>
                    <div className="flex gap-2">
                      <FormControl>
                        <Input autoComplete="one-time-code" {...field} />
                      </FormControl>
                      <VerificationCodeButton form={form} />
                    </div>
                    <FormMessage />
                  </FormItem>
                )}
              />
            )}
            {password('password', t('fields.password'))}
            {password('confirm_password', t('fields.confirmPassword'))}
            {text('aff_code', t('fields.inviteCode'))}
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
