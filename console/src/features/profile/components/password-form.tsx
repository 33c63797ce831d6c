/** Change password: current password, new password (≥ 8) and confirmation → PUT /api/user/self. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Form } from '@/components/ui/form'
import { PasswordField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useUpdateSelf } from '../api'
import { changePasswordSchema, type ChangePasswordValues } from '../schema'

const EMPTY: ChangePasswordValues = { original_password: '', password: '', confirm_password: '' }

export function PasswordForm() {
  const { t } = useTranslation('profile')
  const update = useUpdateSelf()
  const form = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), defaultValues: EMPTY })
  const onSubmit = ({ original_password, password }: ChangePasswordValues) =>
    update.mutate({ original_password, password }, { onSuccess: () => form.reset(EMPTY), onError: (err) => applyFieldErrors(form, err) })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('password.title')}</CardTitle>
        <CardDescription>{t('password.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form id="password-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4 md:grid-cols-3" noValidate>
            <PasswordField control={form.control} name="original_password" label={t('password.current')} autoComplete="current-password" />
            <PasswordField control={form.control} name="password" label={t('password.new')} autoComplete="new-password" />
            <PasswordField control={form.control} name="confirm_password" label={t('password.confirm')} autoComplete="new-password" />
          </form>
        </Form>
      </CardContent>
      <CardFooter className="justify-end border-t">
        <Button type="submit" form="password-form" disabled={update.isPending}>
          {update.isPending && <Loader2 className="animate-spin" />}
          {t('password.save')}
        </Button>
      </CardFooter>
    </Card>
  )
}
