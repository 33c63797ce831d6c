/**
 * /setup: first run — create the root account (POST /api/setup); the server signs it in. Asks for
 * the setup code when the server says this visitor is not on its machine (prefilled from ?code=),
 * and tells the administrator about the starting balance.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSearch } from '@tanstack/react-router'
import { Loader2, ShieldCheck, Wallet } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { InputField, PasswordField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSiteInfo } from '@/features/site/api'
import { useSetup } from '../api'
import { AuthCard } from '../components/auth-card'
import { setupSchema, type SetupValues } from '../schema'

/** The root's starting balance granted by the server (one-hub's 100,000,000 units). */
const ROOT_INITIAL_QUOTA = 100_000_000

export function Setup() {
  const { t, i18n } = useTranslation('auth')
  const site = useSiteInfo()
  const search = useSearch({ from: '/_public/setup' })
  const setup = useSetup()
  const form = useForm<SetupValues>({
    resolver: zodResolver(setupSchema),
    defaultValues: { username: '', password: '', confirm_password: '', code: search.code ?? '' },
  })
  const onSubmit = ({ username, password, code }: SetupValues) => setup.mutate({ username, password, ...(code ? { code } : {}) }, { onError: (err) => applyFieldErrors(form, err) })
  const units = new Intl.NumberFormat(i18n.language.replace('_', '-')).format(ROOT_INITIAL_QUOTA)
  const dollars = (ROOT_INITIAL_QUOTA / (site.quota_per_unit || 500_000)).toFixed(2)

  return (
    <AuthCard title={t('setup.title')} description={t('setup.description')}>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
          {site.setup_code_required && (
            <InputField control={form.control} name="code" label={t('setup.code')} description={t('setup.codeHint')} autoComplete="one-time-code" data-testid="setup-code" />
          )}
          <InputField control={form.control} name="username" label={t('fields.rootUsername')} description={t('setup.usernameHint')} autoComplete="username" autoFocus />
          <PasswordField control={form.control} name="password" label={t('fields.password')} autoComplete="new-password" />
          <PasswordField control={form.control} name="confirm_password" label={t('fields.confirmPassword')} autoComplete="new-password" />
          <Alert data-testid="setup-balance-note">
            <Wallet />
            <AlertDescription>{t('setup.balanceNote', { units, dollars })}</AlertDescription>
          </Alert>
          <Button type="submit" className="mt-2 w-full" disabled={setup.isPending}>
            {setup.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
            {t('setup.submit')}
          </Button>
        </form>
      </Form>
    </AuthCard>
  )
}
