/**
 * The models picker of the channel form: chips with suggestions (the type's suggested models and
 * whatever the supplier listed), free entry (a wildcard * only last), "add suggested", "fetch from
 * the supplier" (POST /api/channel/provider_models_list with the unsaved type, key, base URL and
 * other parameter; needs the key first) and "clear". Also the test-model select fed by the list.
 */
import { useMemo, useState } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { CloudDownload, ListPlus, Loader2, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { TagInput } from '@/components/tag-input'
import { isApiError } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import { useProviderModels } from '../api'
import { isChatModel } from '../options'
import type { ChannelFormValues } from '../schema'
import type { ChannelType } from '@contract/channels'

/** `channelId`: a saved channel; with the key left empty the server asks the supplier with the stored key. */
export function ChannelsModelsField({ form, type, channelId }: { form: UseFormReturn<ChannelFormValues>; type: ChannelType | undefined; channelId?: number }) {
  const { t } = useTranslation('channels')
  const fetchModels = useProviderModels()
  const [fetched, setFetched] = useState<string[]>([])
  const models = useWatch({ control: form.control, name: 'models' })
  const suggestions = useMemo(() => [...new Set([...(type?.models ?? []), ...fetched])], [type, fetched])

  const addAll = (list: string[]) => {
    const next = [...new Set([...form.getValues('models'), ...list])]
    form.setValue('models', next, { shouldDirty: true, shouldValidate: true })
  }

  const fetchFromSupplier = async () => {
    // The supplier can be asked only once the type, key and (where needed) base URL are valid.
    if (!(await form.trigger(['type', 'key', 'base_url']))) return
    const v = form.getValues()
    fetchModels.mutate(
      { type: Number(v.type), key: v.key, id: v.key ? undefined : channelId, base_url: v.base_url.split('\n')[0]?.trim().replace(/\/+$/, '') ?? '', other: v.other },
      {
        onSuccess: (list) => {
          setFetched(list)
          notify.success(t('form.fetchedModels', { count: list.length }))
        },
        onError: (err) => {
          const detail = (isApiError(err) ? err.message : String(err)).replace(/^Failed to get model list:\s*/i, '')
          notify.error(detail ? `${t('form.fetchModelsFailed')} (${detail})` : t('form.fetchModelsFailed'))
        },
      }
    )
  }

  return (
    <FormField
      control={form.control}
      name="models"
      render={({ field }) => (
        <FormItem className="sm:col-span-2">
          <FormLabel>{t('fields.models')}</FormLabel>
          <FormControl>
            <TagInput
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              suggestions={suggestions}
              placeholder={t('form.modelsPlaceholder')}
              removeLabel={(m) => t('form.removeValue', { value: m })}
              data-testid="channel-models-input"
            />
          </FormControl>
          <FormDescription>{t('form.modelsHint')}</FormDescription>
          <FormMessage />
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" disabled={!type?.models.length} onClick={() => addAll(type?.models ?? [])}>
              <ListPlus />
              {t('form.addSuggested')}
            </Button>
            <Button type="button" variant="outline" size="sm" disabled={fetchModels.isPending} onClick={() => void fetchFromSupplier()} data-testid="channel-fetch-models">
              {fetchModels.isPending ? <Loader2 className="animate-spin" /> : <CloudDownload />}
              {t('form.fetchModels')}
            </Button>
            {fetched.length > 0 && (
              <Button type="button" variant="outline" size="sm" onClick={() => addAll(fetched)}>
                <ListPlus />
                {t('form.addFetched', { count: fetched.length })}
              </Button>
            )}
            <Button type="button" variant="ghost" size="sm" disabled={models.length === 0} onClick={() => form.setValue('models', [], { shouldDirty: true })}>
              <Trash2 />
              {t('form.clearModels')}
            </Button>
          </div>
        </FormItem>
      )}
    />
  )
}

const NONE = '__none'

export function ChannelsTestModelField({ form }: { form: UseFormReturn<ChannelFormValues> }) {
  const { t } = useTranslation('channels')
  const models = useWatch({ control: form.control, name: 'models' })
  const chat = models.filter(isChatModel)
  return (
    <FormField
      control={form.control}
      name="test_model"
      render={({ field }) => {
        const options = field.value && !chat.includes(field.value) ? [field.value, ...chat] : chat
        return (
          <FormItem>
            <FormLabel>{t('fields.testModel')}</FormLabel>
            <Select value={field.value || NONE} onValueChange={(v) => field.onChange(v === NONE ? '' : v)}>
              <FormControl>
                <SelectTrigger data-testid="channel-test-model">
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                <SelectItem value={NONE}>{t('form.noTestModel')}</SelectItem>
                {options.map((m) => (
                  <SelectItem key={m} value={m}>
                    {m}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormDescription>{t('form.testModelHint')}</FormDescription>
            <FormMessage />
          </FormItem>
        )
      }}
    />
  )
}
