/**
 * The plan editor's scope: the group a subscriber is moved to while the plan lasts (the enabled
 * groups the users page offers, or none), and the channel tags the plan's traffic is limited to
 * (the channels' tags as suggestions; none: any channel).
 */
import { useQuery } from '@tanstack/react-query'
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { TagInput } from '@/components/tag-input'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { channelTagsQueryOptions } from '@/features/channels/api'
import { groupsQueryOptions } from '@/features/users/api'
import type { PlanFormValues } from '../schema'

/** The select's value for "no group" (a select item cannot have an empty value). */
const NO_GROUP = '-'

export function PlanScopeFields({ form, open }: { form: UseFormReturn<PlanFormValues>; open: boolean }) {
  const { t } = useTranslation('plans')
  const groups = useQuery({ ...groupsQueryOptions, enabled: open })
  const groupOptions = [...new Set([...(groups.data ?? []), form.getValues('group')].filter(Boolean))]
  const tags = useQuery({ ...channelTagsQueryOptions, enabled: open })
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
      <FormField
        control={form.control}
        name="channel_tags"
        render={({ field }) => (
          <FormItem className="content-start">
            <FormLabel>{t('fields.channelTags')}</FormLabel>
            <FormControl>
              <TagInput
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                suggestions={tags.data ?? []}
                placeholder={t('form.channelTagsPlaceholder')}
                removeLabel={(tag) => t('form.removeTag', { value: tag })}
                data-testid="plan-channel-tags-input"
              />
            </FormControl>
            <FormDescription>{t('form.channelTagsHint')}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  )
}
