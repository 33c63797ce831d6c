/**
 * The settings-only field kinds, named by option key, over the console's kit
 * (components/form-fields.tsx, which also gives the settings forms their SwitchField): text with a
 * prefix/suffix and a hint, numbers (bounds from the shared option metadata, a unit suffix), quotas
 * (dollars or units via lib/format), the settings text area and the chip list. Messages are
 * translated with the field's bounds.
 */
import { numericBounds } from '@contract/settings'
import type { ReactNode } from 'react'
import { useWatch, type FieldValues } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, useFormField } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { type BaseProps, TextareaField } from '@/components/form-fields'
import { TagInput } from '@/components/tag-input'
import { displayInCurrency, inputToQuota, quotaPerUnit } from '@/lib/format'
import { cn } from '@/lib/utils'

export type FieldProps<T extends FieldValues> = BaseProps<T>

/** The field's message: client keys translated (with the field's bounds), server text as sent. */
export function FieldMessage({ params }: { params?: Record<string, unknown> }) {
  const { t } = useTranslation('settings')
  const { error, formMessageId } = useFormField()
  const raw = error?.message ? String(error.message) : ''
  if (!raw) return null
  return (
    <p data-slot="form-message" id={formMessageId} className="text-sm text-destructive">
      {error?.type === 'server' ? raw : t(raw, params)}
    </p>
  )
}

interface TextFieldProps<T extends FieldValues> extends FieldProps<T> {
  placeholder?: string
  /** Shown inside the input on the right (a unit). */
  suffix?: ReactNode
  /** Shown inside the input on the left (a currency sign). */
  prefix?: ReactNode
  inputMode?: 'text' | 'numeric' | 'decimal' | 'url' | 'email'
  autoComplete?: string
  /** Extra content at the end of the label row. */
  labelExtra?: ReactNode
  /** A short line right under the input (e.g. a converted amount). */
  hint?: ReactNode
  params?: Record<string, unknown>
  mono?: boolean
}

export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  className,
  placeholder,
  suffix,
  prefix,
  inputMode,
  autoComplete = 'off',
  labelExtra,
  hint,
  params,
  mono,
}: TextFieldProps<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={cn('content-start', className)}>
          <div className="flex min-h-5 items-center justify-between gap-2">
            <FormLabel>{label}</FormLabel>
            {labelExtra}
          </div>
          <div className="relative">
            {prefix && <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground">{prefix}</span>}
            <FormControl>
              <Input
                {...field}
                value={field.value ?? ''}
                placeholder={placeholder}
                inputMode={inputMode}
                autoComplete={autoComplete}
                spellCheck={false}
                className={cn(prefix && 'pl-7', suffix && 'pr-20', mono && 'font-mono md:text-[13px]')}
              />
            </FormControl>
            {suffix && <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-muted-foreground">{suffix}</span>}
          </div>
          {hint && <p className="-mt-1 text-xs text-muted-foreground tabular-nums">{hint}</p>}
          {description && <FormDescription className="text-xs">{description}</FormDescription>}
          <FieldMessage params={params} />
        </FormItem>
      )}
    />
  )
}

/** A number option; its bounds come from the shared option metadata and show in the error message. */
export function NumberField<T extends FieldValues>(props: Omit<TextFieldProps<T>, 'inputMode' | 'params'>) {
  const limit = numericBounds(props.name)
  return <TextField {...props} inputMode={limit?.integer ? 'numeric' : 'decimal'} params={limit ? { min: limit.min, max: limit.max } : undefined} />
}

/** A quota amount: dollars when the site shows currency (with the unit equivalent), units otherwise. */
export function QuotaField<T extends FieldValues>(props: FieldProps<T>) {
  const { t } = useTranslation('settings')
  const value = String(useWatch({ control: props.control, name: props.name }) ?? '')
  const currency = displayInCurrency()
  const typed = Number(value)
  const hint =
    value.trim() !== '' && Number.isFinite(typed) && typed >= 0
      ? currency
        ? t('quota.equalsUnits', { units: inputToQuota(typed).toLocaleString() })
        : t('quota.equalsDollars', { dollars: (typed / quotaPerUnit()).toFixed(2) })
      : undefined
  return <TextField {...props} prefix={currency ? '$' : undefined} suffix={currency ? undefined : t('units.points')} inputMode={currency ? 'decimal' : 'numeric'} hint={hint} />
}

interface SettingsTextareaFieldProps<T extends FieldValues> extends FieldProps<T> {
  rows?: number
  mono?: boolean
  placeholder?: string
  labelExtra?: ReactNode
  /** Rendered under the textarea (a preview). */
  after?: ReactNode
}

/** The kit's text area with the settings look: small help text, scrolls past 28rem, monospace for JSON. */
export function SettingsTextareaField<T extends FieldValues>({ rows = 4, mono, className, ...props }: SettingsTextareaFieldProps<T>) {
  return (
    <TextareaField
      {...props}
      rows={rows}
      spellCheck={false}
      className={cn('content-start [&_[data-slot=form-description]]:text-xs', className)}
      textareaClassName={cn('max-h-[28rem] overflow-y-auto', mono && 'font-mono text-xs md:text-xs')}
    />
  )
}

export function TagsField<T extends FieldValues>({ control, name, label, description, className, placeholder }: FieldProps<T> & { placeholder?: string }) {
  const { t } = useTranslation('settings')
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <TagInput
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              placeholder={placeholder}
              removeLabel={(value) => t('tags.remove', { value })}
            />
          </FormControl>
          {description && <FormDescription className="text-xs">{description}</FormDescription>}
          <FieldMessage />
        </FormItem>
      )}
    />
  )
}

/** A responsive grid of fields inside a section. */
export function FieldGrid({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('grid gap-5 md:grid-cols-2 xl:grid-cols-3', className)}>{children}</div>
}

/** A titled group inside a section (e.g. "Retries"). */
export function FieldGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</legend>
      {children}
    </fieldset>
  )
}
