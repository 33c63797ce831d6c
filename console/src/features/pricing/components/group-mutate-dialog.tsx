/**
 * New / edit user group: symbol (fixed once created: users and tokens refer to it), name, ratio,
 * API rate, public, enabled → POST or PUT /api/user_group/. Server field messages land on fields.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Switch } from '@/components/ui/switch'
import { InputField } from '@/components/form-fields'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/handle-error'
import type { UserGroup } from '@contract/groups'
import { useSaveGroup } from '../api'
import { groupFormSchema, toGroupBody, type GroupFormValues } from '../schema'
import { formatUsd, ratioToUsd } from '../units'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  group?: UserGroup
}

function SwitchField({ form, name, label, help }: { form: ReturnType<typeof useForm<GroupFormValues>>; name: 'public' | 'enable'; label: string; help: string }) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex flex-row items-center justify-between gap-4 rounded-lg border p-3">
          <div className="grid gap-1">
            <FormLabel>{label}</FormLabel>
            <FormDescription>{help}</FormDescription>
          </div>
          <FormControl>
            <Switch checked={field.value} onCheckedChange={field.onChange} data-testid={`group-${name}`} />
          </FormControl>
        </FormItem>
      )}
    />
  )
}

export function GroupMutateDialog({ open, onOpenChange, group }: Props) {
  const { t } = useTranslation('pricing')
  const save = useSaveGroup()
  const form = useForm<GroupFormValues>({
    resolver: zodResolver(groupFormSchema),
    defaultValues: group
      ? {
          symbol: group.symbol,
          name: group.name,
          ratio: String(group.ratio),
          api_rate: String(group.api_rate),
          tpm: String(group.tpm ?? 0),
          public: group.public,
          enable: group.enable,
        }
      : { symbol: '', name: '', ratio: '1', api_rate: '600', tpm: '0', public: false, enable: true },
  })
  const ratio = Number(useWatch({ control: form.control, name: 'ratio' }))
  const onSubmit = (v: GroupFormValues) =>
    save.mutate(
      { id: group?.id, body: toGroupBody(v) },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => {
          applyFieldErrors(form, err)
          if (isApiError(err) && err.code === 'conflict') form.setError('symbol', { type: 'server', message: err.message })
        },
      }
    )
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" data-testid="group-dialog">
        <DialogHeader>
          <DialogTitle>{group ? t('groups.editTitle') : t('groups.newTitle')}</DialogTitle>
          <DialogDescription>{t('groups.dialogDescription')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="group-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <InputField
                control={form.control}
                name="symbol"
                label={t('groups.symbol')}
                description={group ? t('groups.symbolFixed') : t('groups.symbolHelp')}
                disabled={Boolean(group)}
                autoComplete="off"
                spellCheck={false}
              />
              <InputField control={form.control} name="name" label={t('groups.name')} autoComplete="off" />
              <InputField
                control={form.control}
                name="ratio"
                label={t('groups.ratio')}
                inputMode="decimal"
                autoComplete="off"
                description={Number.isFinite(ratio) && ratio >= 0 ? t('groups.ratioHelp', { price: formatUsd(ratioToUsd('tokens', ratio)) }) : undefined}
              />
              <InputField control={form.control} name="api_rate" label={t('groups.apiRate')} inputMode="numeric" autoComplete="off" description={t('groups.apiRateHelp')} />
              <InputField control={form.control} name="tpm" label={t('groups.tpm')} inputMode="numeric" autoComplete="off" description={t('groups.tpmHelp')} />
            </div>
            <SwitchField form={form} name="public" label={t('groups.public')} help={t('groups.publicHelp')} />
            <SwitchField form={form} name="enable" label={t('groups.enable')} help={t('groups.enableHelp')} />
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="group-form" disabled={save.isPending}>
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
