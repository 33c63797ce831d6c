/** /setup: first run — create the root account (POST /api/setup); the server signs it in. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { PasswordInput } from '@/components/password-input'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSetup } from '../api'
import { AuthCard } from '../components/auth-card'
import { setupSchema, type SetupValues } from '../schema'

export function Setup() {
  const { t } = useTranslation('auth')
  const setup = useSetup()
  const form = useForm<SetupValues>({
    resolver: zodResolver(setupSchema),
    defaultValues: { username: '', password: '', confirm_password: '' },
  })
  const onSubmit = ({ username, password }: SetupValues) =>
    setup.mutate({ username, password }, { onError: (err) => applyFieldErrors(form, err) })

  return (
    <AuthCard title={t('setup.title')} description={t('setup.description')}>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
          <FormField
            control={form.control}
            name="username"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.rootUsername')}</FormLabel>
                <FormControl>
                  <Input autoComplete="username" autoFocus {...field} />
                </FormControl>
                <FormDescription>{t('setup.usernameHint')}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="password"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.password')}</FormLabel>
                <FormControl>
                  <PasswordInput autoComplete="new-password" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="confirm_password"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.confirmPassword')}</FormLabel>
                <FormControl>
                  <PasswordInput autoComplete="new-password" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="submit" className="mt-2 w-full" disabled={setup.isPending}>
            {setup.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
            {t('setup.submit')}
          </Button>
        </form>
      </Form>
    </AuthCard>
  )
}
