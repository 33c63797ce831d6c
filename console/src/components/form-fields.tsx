/**
 * Labelled form fields over react-hook-form (label, control, description, message) so forms list
 * their fields instead of repeating the FormField/FormItem scaffolding: InputField, PasswordField.
 */
import type { ComponentProps, ReactNode } from 'react'
import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
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
