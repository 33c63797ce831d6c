/**
 * shadcn/ui form helpers over react-hook-form: Form (provider), FormField (Controller), FormItem,
 * FormLabel, FormControl, FormDescription, FormMessage. Client-side messages are i18n keys
 * (`validation.*` in the common namespace) and are translated here; server messages (type
 * 'server', from `data.fields`) are shown as sent.
 */
import { createContext, useContext, useId, type ComponentProps } from 'react'
import { Label as LabelPrimitive, Slot } from 'radix-ui'
import { Controller, FormProvider, useFormContext, useFormState, type ControllerProps, type FieldPath, type FieldValues } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'
import { Label } from './label'

export const Form = FormProvider

interface FormFieldContextValue {
  name: string
}
const FormFieldContext = createContext<FormFieldContextValue | null>(null)
const FormItemContext = createContext<{ id: string } | null>(null)

export function FormField<TValues extends FieldValues = FieldValues, TName extends FieldPath<TValues> = FieldPath<TValues>>(props: ControllerProps<TValues, TName>) {
  return (
    <FormFieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FormFieldContext.Provider>
  )
}

export function useFormField() {
  const field = useContext(FormFieldContext)
  const item = useContext(FormItemContext)
  const { getFieldState } = useFormContext()
  const formState = useFormState({ name: field?.name })
  if (!field || !item) throw new Error('useFormField must be used inside <FormField> and <FormItem>')
  const state = getFieldState(field.name, formState)
  return {
    id: item.id,
    name: field.name,
    formItemId: `${item.id}-form-item`,
    formDescriptionId: `${item.id}-form-item-description`,
    formMessageId: `${item.id}-form-item-message`,
    ...state,
  }
}

export function FormItem({ className, ...props }: ComponentProps<'div'>) {
  const id = useId()
  return (
    <FormItemContext.Provider value={{ id }}>
      <div data-slot="form-item" className={cn('grid gap-2', className)} {...props} />
    </FormItemContext.Provider>
  )
}

export function FormLabel({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  const { error, formItemId } = useFormField()
  return <Label data-slot="form-label" data-error={!!error} className={cn('data-[error=true]:text-destructive', className)} htmlFor={formItemId} {...props} />
}

export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { error, formItemId, formDescriptionId, formMessageId } = useFormField()
  return (
    <Slot.Root data-slot="form-control" id={formItemId} aria-describedby={error ? `${formDescriptionId} ${formMessageId}` : formDescriptionId} aria-invalid={!!error} {...props} />
  )
}

export function FormDescription({ className, ...props }: ComponentProps<'p'>) {
  const { formDescriptionId } = useFormField()
  return <p data-slot="form-description" id={formDescriptionId} className={cn('text-sm text-muted-foreground', className)} {...props} />
}

export function FormMessage({ className, ...props }: ComponentProps<'p'>) {
  const { t } = useTranslation()
  const { error, formMessageId } = useFormField()
  const raw = error?.message ? String(error.message) : ''
  const body = raw ? (error?.type === 'server' ? raw : t(raw)) : props.children
  if (!body) return null
  return (
    <p data-slot="form-message" id={formMessageId} className={cn('text-sm text-destructive', className)} {...props}>
      {body}
    </p>
  )
}
