/**
 * More labelled react-hook-form fields in the style of form-fields.tsx: TextareaField (label,
 * textarea, description, message) and SwitchField (a bordered row with the label and description
 * on the left and the switch on the right).
 */
import type { ComponentProps, ReactNode } from 'react'
import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'

interface BaseProps<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  label: ReactNode
  description?: ReactNode
  className?: string
}

export function TextareaField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  className,
  textareaClassName,
  ...textarea
}: BaseProps<T> & Omit<ComponentProps<'textarea'>, 'name' | 'className'> & { textareaClassName?: string }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Textarea {...textarea} {...field} value={field.value ?? ''} className={textareaClassName} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  )
}

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
        <FormItem className={cn('flex flex-row items-center justify-between gap-4 rounded-lg border p-3', className)}>
          <div className="grid gap-1">
            <FormLabel>{label}</FormLabel>
            {description && <FormDescription className="text-xs">{description}</FormDescription>}
          </div>
          <FormControl>
            <Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} onBlur={field.onBlur} disabled={disabled} data-testid={rest['data-testid']} />
          </FormControl>
        </FormItem>
      )}
    />
  )
}
