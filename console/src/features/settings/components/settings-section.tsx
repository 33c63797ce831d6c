/**
 * One settings card = one form with its own save button. The form starts from the current options
 * (`toForm`), follows later refreshes without losing what the admin is typing, and on save sends
 * only the options whose value changed (`toOptions` of the values vs. of the starting point; an
 * empty secret equals its starting '' and is never sent). Server field messages land on the fields.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react'
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
import { Loader2, Save } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Form } from '@/components/ui/form'
import { isApiError } from '@/lib/api-client'
import { useSiteInfo } from '@/features/site/api'
import { settingsKeys, useSaveOptions, type OptionMap } from '../api'

export interface SettingsSectionProps<T extends FieldValues> {
  /** Anchor of the card in the tab's section list, and its test id (`settings-<id>`). */
  id: string
  title: string
  description?: ReactNode
  options: OptionMap
  schema: z.ZodType<T, T>
  toForm: (options: OptionMap) => T
  toOptions: (values: T) => Record<string, string>
  /** Server field keys shown on another form field (e.g. DefaultModelPrice → its input). */
  fieldAliases?: Record<string, Path<T>>
  children: (form: UseFormReturn<T>) => ReactNode
  /** Extra content under the fields (notes, links). */
  footnote?: ReactNode
}

function changedOptions(next: Record<string, string>, base: Record<string, string>) {
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => value !== base[key]))
}

export function SettingsSection<T extends FieldValues>({ id, title, description, options, schema, toForm, toOptions, fieldAliases, children, footnote }: SettingsSectionProps<T>) {
  const { t } = useTranslation('settings')
  const queryClient = useQueryClient()
  const save = useSaveOptions()
  // Quota inputs depend on the currency display and quota-per-unit of the site info.
  const { display_in_currency, quota_per_unit } = useSiteInfo()
  const values = useMemo(() => toForm(options), [options, display_in_currency, quota_per_unit])
  const form = useForm<T, unknown, T>({
    resolver: zodResolver(schema),
    values,
    resetOptions: { keepDirtyValues: true },
  })
  const formId = `settings-${id}-form`
  // What the form started from: a save sends the options that differ from it.
  const baseline = useRef(values)
  useEffect(() => {
    baseline.current = values
  }, [values])
  // `values` refreshes keep what is being typed; an explicit reset (after saving, discard) does not.
  const resetTo = (next: T) => {
    baseline.current = next
    form.reset(next, { keepDirtyValues: false })
  }

  const onSubmit = (submitted: T) => {
    const changed = changedOptions(toOptions(submitted), toOptions(baseline.current))
    if (Object.keys(changed).length === 0) {
      resetTo(submitted)
      return
    }
    save.mutate(changed, {
      onSuccess: () => {
        const latest = queryClient.getQueryData<OptionMap>(settingsKeys.options)
        resetTo(latest ? toForm(latest) : submitted)
      },
      onError: (err) => {
        if (!isApiError(err)) return
        const known = Object.keys(form.getValues())
        for (const [key, message] of Object.entries(err.fields)) {
          const target = fieldAliases?.[key] ?? (known.includes(key) ? (key as Path<T>) : undefined)
          if (target) form.setError(target, { type: 'server', message }, { shouldFocus: true })
        }
      },
    })
  }

  return (
    <Card id={id} data-testid={`settings-${id}`} className="scroll-mt-24 gap-5">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        <Form {...form}>
          <form id={formId} onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5">
            {children(form)}
          </form>
        </Form>
        {footnote && <div className="mt-5 text-sm text-muted-foreground">{footnote}</div>}
      </CardContent>
      <CardFooter className="justify-end gap-2 border-t px-4 sm:px-6">
        {form.formState.isDirty && !save.isPending && (
          <Button type="button" variant="ghost" onClick={() => resetTo(values)}>
            {t('discard')}
          </Button>
        )}
        <Button type="submit" form={formId} disabled={save.isPending || !form.formState.isDirty} data-testid={`settings-${id}-save`}>
          {save.isPending ? <Loader2 className="animate-spin" /> : <Save />}
          {t('save')}
        </Button>
      </CardFooter>
    </Card>
  )
}
