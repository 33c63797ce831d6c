/** /setup: first run — create the root account (POST /api/setup); the server signs it in. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField, PasswordField } from '@/components/form-fields'
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
          <InputField
            control={form.control}
            name="username"
            label={t('fields.rootUsername')}
            description={t('setup.usernameHint')}
            autoComplete="username"
            autoFocus
          />
          <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="new-password" />
          <PasswordField
            control={form.control}
            name="confirm_password"
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
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
