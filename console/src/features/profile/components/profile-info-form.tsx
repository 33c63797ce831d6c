/** Personal info: username (≥ 3) and display name → PUT /api/user/self. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import type { UserProfile } from '@/stores/auth-store'
import { useUpdateSelf } from '../api'
import { profileInfoSchema, type ProfileInfoValues } from '../schema'

export function ProfileInfoForm({ user }: { user: UserProfile }) {
  const { t } = useTranslation('profile')
  const update = useUpdateSelf()
  const form = useForm<ProfileInfoValues>({
    resolver: zodResolver(profileInfoSchema),
    defaultValues: { username: user.username, display_name: user.display_name },
  })
  const onSubmit = (values: ProfileInfoValues) => update.mutate(values, { onError: (err) => applyFieldErrors(form, err) })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('info.title')}</CardTitle>
        <CardDescription>{t('info.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form id="profile-info-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4 md:grid-cols-2" noValidate>
            <InputField control={form.control} name="username" label={t('info.username')} autoComplete="username" />
            <InputField control={form.control} name="display_name" label={t('info.displayName')} autoComplete="nickname" />
          </form>
        </Form>
      </CardContent>
      <CardFooter className="justify-end border-t">
        <Button type="submit" form="profile-info-form" disabled={update.isPending || !form.formState.isDirty}>
          {update.isPending && <Loader2 className="animate-spin" />}
          {t('info.save')}
        </Button>
      </CardFooter>
    </Card>
  )
}
