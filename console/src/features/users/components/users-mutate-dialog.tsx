/**
 * Create or edit a user (one form for both): username, display name, password (optional when
 * editing), email, group (from GET /api/group/) and quota — in dollars when the site shows
 * currency. Editing sends the quota only when it was changed, so concurrent spending is not undone,
 * and edits the ceilings on the limits and budget of the user's tokens (a token may only narrow them);
 * editing also shows the user's sign-in methods with Unbind (users-sign-in-methods.tsx).
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { InputField, PasswordField } from '@/components/form-fields'
import { displayInCurrency, inputToQuota, quotaPerUnit, quotaToInput } from '@/lib/format'
import { applyFieldErrors } from '@/lib/handle-error'
import { groupsQueryOptions, useCreateUser, useUpdateUser } from '../api'
import { userFormSchema, type UserFormValues } from '../schema'
import { limitsBody, limitsDefaults, type LimitValues } from '@/lib/limits-form'
import { TokenLimitsFields } from '@/features/tokens/components/token-limits-fields'
import { UsersSignInMethods } from './users-sign-in-methods'
import { UsersTwoFactor } from './users-two-factor'
import type { AdminUser } from '@contract/users'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The user being edited; absent when creating. */
  row?: AdminUser
}

export function UsersMutateDialog({ open, onOpenChange, row }: Props) {
  const { t } = useTranslation('users')
  const edit = !!row
  const currency = displayInCurrency()
  const groups = useQuery({ ...groupsQueryOptions, enabled: open })
  const create = useCreateUser()
  const update = useUpdateUser()
  const pending = create.isPending || update.isPending
  const form = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema({ edit, currency })),
    defaultValues: {
      username: row?.username ?? '',
      display_name: row?.display_name ?? '',
      email: row?.email ?? '',
      password: '',
      group: row?.group ?? 'default',
      quota: String(row ? quotaToInput(row.quota) : 0),
      ...limitsDefaults(row as Partial<LimitValues> | undefined),
    },
  })

  const groupOptions = [...new Set([...(groups.data ?? []), form.getValues('group')].filter(Boolean))]
  const done = { onSuccess: () => onOpenChange(false), onError: (err: unknown) => applyFieldErrors(form, err) }

  const onSubmit = (v: UserFormValues) => {
    const common = { username: v.username, display_name: v.display_name, email: v.email, group: v.group }
    if (!row) {
      create.mutate({ ...common, password: v.password, quota: inputToQuota(Number(v.quota)) }, done)
      return
    }
    update.mutate(
      {
        ...common,
        id: row.id,
        ...(v.password ? { password: v.password } : {}),
        ...(form.formState.dirtyFields.quota ? { quota: inputToQuota(Number(v.quota)) } : {}),
        ...limitsBody(v),
      },
      done
    )
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl" data-testid="user-form-dialog">
        <DialogHeader>
          <DialogTitle>{edit ? t('form.editTitle', { name: row.username }) : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{edit ? t('form.editDescription') : t('form.createDescription')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="user-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4 sm:grid-cols-2" noValidate>
            <InputField control={form.control} name="username" label={t('fields.username')} autoComplete="off" />
            <InputField control={form.control} name="display_name" label={t('fields.displayName')} optional autoComplete="off" />
            <PasswordField
              control={form.control}
              name="password"
              label={t('fields.password')}
              optional={edit}
              description={edit ? t('form.passwordKeep') : undefined}
              autoComplete="new-password"
            />
            <InputField control={form.control} name="email" type="email" label={t('fields.email')} optional autoComplete="off" />
            <FormField
              control={form.control}
              name="group"
              render={({ field }) => (
                <FormItem className="content-start">
                  <FormLabel>{t('fields.group')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger name="group">
                        <SelectValue placeholder={t('form.groupPlaceholder')} />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {groupOptions.map((g) => (
                        <SelectItem key={g} value={g}>
                          {g}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <InputField
              control={form.control}
              name="quota"
              inputMode="decimal"
              label={currency ? t('fields.quotaUsd') : t('fields.quotaUnits')}
              description={currency ? t('form.quotaUsdHint', { units: quotaPerUnit() }) : t('form.quotaUnitsHint')}
            />
            {edit && (
              <div className="sm:col-span-2">
                <TokenLimitsFields control={form.control} defaults />
              </div>
            )}
            {edit && <UsersSignInMethods row={row} />}
            {edit && <UsersTwoFactor userId={row.id} username={row.username} />}
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="user-form" disabled={pending}>
            {pending && <Loader2 className="animate-spin" />}
            {edit ? t('actions.save') : t('actions.create')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
