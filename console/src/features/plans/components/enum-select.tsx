/** A select over a fixed list of values inside a form row (period, allowance kind, duration unit), its labels translated by the caller. */
import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { cn } from '@/lib/utils'

interface Props<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  values: readonly string[]
  label: (value: string) => string
  /** The field's label: shown above, or (`hideLabel`) read by screen readers only. */
  title: string
  hideLabel?: boolean
  placeholder?: string
  className?: string
}

export function EnumSelect<T extends FieldValues>({ control, name, values, label, title, hideLabel, placeholder, className }: Props<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel className={cn(hideLabel && 'sr-only')}>{title}</FormLabel>
          <Select value={field.value} onValueChange={field.onChange}>
            <FormControl>
              <SelectTrigger name={field.name} className="w-full">
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {values.map((v) => (
                <SelectItem key={v} value={v}>
                  {label(v)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FormMessage />
        </FormItem>
      )}
    />
  )
}
