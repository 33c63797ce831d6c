/**
 * The plan editor's scope: the group a subscriber is moved to while the plan lasts (the enabled
 * groups the users page offers, or none). Limiting a plan's traffic to channel tags is not built
 * yet (the API refuses tags), so the editor offers no field for it.
 */
import { useQuery } from '@tanstack/react-query'
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { groupsQueryOptions } from '@/features/users/api'
import type { PlanFormValues } from '../schema'

/** The select's value for "no group" (a select item cannot have an empty value). */
const NO_GROUP = '-'

export function PlanScopeFields({ form, open }: { form: UseFormReturn<PlanFormValues>; open: boolean }) {
  const { t } = useTranslation('plans')
  const groups = useQuery({ ...groupsQueryOptions, enabled: open })
  const groupOptions = [...new Set([...(groups.data ?? []), form.getValues('group')].filter(Boolean))]
  return (
    <>
      <FormField
        control={form.control}
        name="group"
        render={({ field }) => (
          <FormItem className="content-start">
            <FormLabel>{t('fields.group')}</FormLabel>
            <Select value={field.value || NO_GROUP} onValueChange={(v) => field.onChange(v === NO_GROUP ? '' : v)}>
              <FormControl>
                <SelectTrigger name="group" className="w-full">
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                <SelectItem value={NO_GROUP}>{t('form.noGroup')}</SelectItem>
                {groupOptions.map((g) => (
                  <SelectItem key={g} value={g}>
                    {g}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormDescription>{t('form.groupHint')}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  )
}
