/**
 * The console's form-field kit: labelled fields over react-hook-form (label, control, description,
 * message) so forms list their fields instead of repeating the FormField/FormItem scaffolding —
 * InputField, PasswordField, TextareaField (with an optional label-row extra and a preview under
 * it), and SwitchField (a bordered row with the label and description on the left and the switch
 * on the right, its message under the row). The settings page layers its option-keyed fields
 * (translated bound messages, units, quotas) on top in features/settings/components/settings-fields.tsx.
 */
import type { ComponentProps, ReactNode } from 'react'
import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { PasswordInput } from './password-input'

type FieldProps<T extends FieldValues> = Omit<ComponentProps<'input'>, 'name'> & {
  control: Control<T>
  name: FieldPath<T>
  label: ReactNode
  description?: ReactNode
  /** Marks the label "(optional)". */
  optional?: boolean
  /** Shown next to the input (e.g. a "send code" button). */
  action?: ReactNode
}

function makeField(render: (props: ComponentProps<'input'>) => ReactNode) {
  return function Field<T extends FieldValues>({ control, name, label, description, optional, action, className, ...input }: FieldProps<T>) {
    const { t } = useTranslation()
    return (
      <FormField
        control={control}
        name={name}
        render={({ field }) => (
          <FormItem className={className}>
            <FormLabel>
              {label}
              {optional && <span className="font-normal text-muted-foreground">{t('optional')}</span>}
            </FormLabel>
            {action ? (
              <div className="flex gap-2">
                <FormControl>{render({ ...input, ...field })}</FormControl>
                {action}
              </div>
            ) : (
              <FormControl>{render({ ...input, ...field })}</FormControl>
            )}
            {description && <FormDescription>{description}</FormDescription>}
            <FormMessage />
          </FormItem>
        )}
      />
    )
  }
}

export const InputField = makeField((props) => <Input {...props} />)
export const PasswordField = makeField((props) => <PasswordInput {...props} />)

/** What every field of the kit takes (settings-fields.tsx builds on it too). */
export interface BaseProps<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  label: ReactNode
  description?: ReactNode
  className?: string
}

interface TextareaFieldProps {
  textareaClassName?: string
  /** Extra content at the end of the label row (a format button, a template menu). */
  labelExtra?: ReactNode
  /** Rendered under the message (a preview). */
  after?: ReactNode
}

export function TextareaField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  className,
  textareaClassName,
  labelExtra,
  after,
  ...textarea
}: BaseProps<T> & Omit<ComponentProps<'textarea'>, 'name' | 'className'> & TextareaFieldProps) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          {labelExtra ? (
            <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
              <FormLabel>{label}</FormLabel>
              {labelExtra}
            </div>
          ) : (
            <FormLabel>{label}</FormLabel>
          )}
          <FormControl>
            <Textarea {...textarea} {...field} value={field.value ?? ''} className={textareaClassName} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
          {after}
        </FormItem>
      )}
    />
  )
}

/**
 * A boolean as a bordered row: label and description on the left, the switch on the right, the
 * field's message (a server refusal) under the row, which turns red while the field is invalid.
 */
export function SwitchField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  className,
  disabled,
  ...rest
}: BaseProps<T> & { disabled?: boolean; 'data-testid'?: string }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={cn('gap-0 rounded-lg border p-3 has-[[aria-invalid=true]]:border-destructive/60', className)}>
          <div className="flex items-start justify-between gap-4">
            <div className="grid gap-1.5">
              <FormLabel className="leading-snug">{label}</FormLabel>
              {description && <FormDescription className="text-xs">{description}</FormDescription>}
            </div>
            <FormControl>
              <Switch
                checked={Boolean(field.value)}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
                disabled={disabled}
                data-testid={rest['data-testid']}
              />
            </FormControl>
          </div>
          <FormMessage className="mt-2" />
        </FormItem>
      )}
    />
  )
}
