/**
 * Create / edit a channel in a side sheet (one form for both). Editing first loads the channel
 * with its key (GET /api/channel/:id). The type's hints (key format, base URL, other parameter)
 * follow the chosen type; one key per line creates one channel per key under one tag (batch mode)
 * or one channel rotating over the keys (pool mode). Editing also shows the channel's health
 * (pool keys, status history: channels-health.tsx). Client rules come from schema.ts; the
 * server's per-field messages land on the fields.
 */
import { useMemo } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useQuery } from '@tanstack/react-query'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Separator } from '@/components/ui/separator'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { InputField, SwitchField, TextareaField } from '@/components/form-fields'
import { TagInput } from '@/components/tag-input'
import { applyFieldErrors } from '@/lib/handle-error'
import { channelQueryOptions, channelTypesQueryOptions, groupsQueryOptions, useCreateChannel, useUpdateChannel } from '../api'
import { keysOf } from '@contract/key-format'
import { AZURE_TYPE } from '../options'
import { channelBody, channelFormDefaults, channelFormSchema, type ChannelFormValues } from '../schema'
import { ChannelsHealth } from './channels-health'
import { ChannelsModelsField, ChannelsTestModelField } from './channels-models-field'
import { ChannelsPluginField } from './channels-plugin-field'
import type { Channel, ChannelType } from '@contract/channels'

interface SheetProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The row to edit; absent when creating. */
  row?: Channel
  /** Values a new channel starts with (the dashboard's "add the local mock" link). */
  preset?: Partial<ChannelFormValues>
}

export function ChannelsMutateSheet({ open, onOpenChange, row, preset }: SheetProps) {
  const { t } = useTranslation('channels')
  const types = useQuery(channelTypesQueryOptions).data
  const detail = useQuery({ ...channelQueryOptions(row?.id ?? 0), enabled: Boolean(row) })
  const ready = types && (!row || detail.data)
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent className="w-full gap-0 p-0 sm:max-w-2xl" data-testid="channel-sheet">
        <div className="border-b px-6 py-4 pr-12">
          <SheetTitle>{row ? t('form.editTitle', { name: row.name }) : t('form.createTitle')}</SheetTitle>
          <SheetDescription>{row ? t('form.editDescription') : t('form.createDescription')}</SheetDescription>
        </div>
        {ready ? (
          <ChannelForm types={types} channel={row ? detail.data : undefined} preset={preset} onDone={() => onOpenChange(false)} />
        ) : (
          <div className="grid gap-4 p-6">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </div>
        )}
      </SheetContent>
    </Sheet>
  )
}

function SectionTitle({ children }: { children: string }) {
  return <h3 className="text-sm font-semibold text-muted-foreground sm:col-span-2">{children}</h3>
}

function ChannelForm({ types, channel, preset, onDone }: { types: ChannelType[]; channel?: Channel; preset?: Partial<ChannelFormValues>; onDone: () => void }) {
  const { t } = useTranslation('channels')
  const edit = Boolean(channel)
  const groups = useQuery(groupsQueryOptions).data ?? []
  const create = useCreateChannel()
  const update = useUpdateChannel()
  const schema = useMemo(() => channelFormSchema(types, edit), [types, edit])
  const initialType = types.find((ty) => ty.id === 1) ?? types[0]
  const form = useForm<ChannelFormValues>({ resolver: zodResolver(schema), defaultValues: { ...channelFormDefaults(channel, initialType), ...preset } })
  const typeId = useWatch({ control: form.control, name: 'type' })
  const key = useWatch({ control: form.control, name: 'key' })
  const name = useWatch({ control: form.control, name: 'name' })
  const tag = useWatch({ control: form.control, name: 'tag' })
  const pool = useWatch({ control: form.control, name: 'key_mode' }) === 'pool'
  const type = types.find((ty) => String(ty.id) === typeId)
  const keyCount = keysOf(key).length
  const keyHint = type ? t(`keyHints.${type.id}`, { defaultValue: type.key_hint }) : ''
  const otherHint = type?.other_hint ? t(`otherHints.${type.id}`, { defaultValue: type.other_hint }) : ''
  const pending = create.isPending || update.isPending

  const onSubmit = (v: ChannelFormValues) => {
    const options = { onSuccess: onDone, onError: (err: unknown) => applyFieldErrors(form, err) }
    if (channel) update.mutate({ ...channelBody(v), id: channel.id }, options)
    else create.mutate(channelBody(v), options)
  }

  return (
    <>
      <div className="flex-1 overflow-y-auto px-6 py-5">
        <Form {...form}>
          <form id="channel-form" onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5 sm:grid-cols-2">
            <SectionTitle>{t('form.sectionBasics')}</SectionTitle>
            <FormField
              control={form.control}
              name="type"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.type')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger data-testid="channel-type">
                        <SelectValue placeholder={t('form.typePlaceholder')} />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {types.map((ty) => (
                        <SelectItem key={ty.id} value={String(ty.id)}>
                          {ty.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <InputField control={form.control} name="name" label={t('fields.name')} placeholder={t('form.namePlaceholder')} />
            <InputField
              control={form.control}
              name="base_url"
              label={t('fields.baseUrl')}
              className="sm:col-span-2"
              placeholder={type?.base_url_hint || type?.default_base_url}
              description={type?.default_base_url ? t('form.baseUrlDefault', { url: type.default_base_url }) : t('form.baseUrlRequired')}
            />
            <TextareaField
              control={form.control}
              name="key"
              label={t('fields.key')}
              rows={edit ? 2 : 4}
              className="sm:col-span-2"
              textareaClassName="font-mono text-xs"
              spellCheck={false}
              autoComplete="off"
              placeholder={keyHint}
              description={
                <>
                  {keyHint && <span className="block">{t('form.keyFormat', { hint: keyHint })}</span>}
                  {edit && channel?.key === undefined && <span className="block">{t('form.keyKeep', { masked: channel?.key_masked ?? '' })}</span>}
                  {pool ? (
                    <span className="block">{t('form.poolActive', { count: keyCount })}</span>
                  ) : (
                    !edit && <span className="block">{keyCount > 1 ? t('form.batchActive', { count: keyCount, tag: tag || name || '—' }) : t('form.batchHint')}</span>
                  )}
                </>
              }
            />
            <FormField
              control={form.control}
              name="key_mode"
              render={({ field }) => (
                <FormItem className="sm:col-span-2">
                  <FormLabel>{t('fields.keyMode')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger data-testid="channel-key-mode">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value="batch">{t('form.keyModeBatch')}</SelectItem>
                      <SelectItem value="pool">{t('form.keyModePool')}</SelectItem>
                    </SelectContent>
                  </Select>
                  <FormDescription>{t('form.keyModeHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            {(type?.other_hint || type?.id === AZURE_TYPE || form.getValues('other')) && (
              <InputField
                control={form.control}
                name="other"
                label={type?.id === AZURE_TYPE ? t('fields.apiVersion') : t('fields.other')}
                className="sm:col-span-2"
                placeholder={otherHint}
                description={otherHint}
              />
            )}

            <Separator className="sm:col-span-2" />
            <SectionTitle>{t('form.sectionModels')}</SectionTitle>
            <ChannelsModelsField form={form} type={type} channelId={channel?.id} />
            <TextareaField
              control={form.control}
              name="model_mapping"
              label={t('fields.modelMapping')}
              rows={3}
              className="sm:col-span-2"
              textareaClassName="font-mono text-xs"
              spellCheck={false}
              placeholder='{"gpt-4o": "gpt-4o-2024-11-20"}'
              description={t('form.modelMappingHint')}
            />

            <Separator className="sm:col-span-2" />
            <SectionTitle>{t('form.sectionRouting')}</SectionTitle>
            <FormField
              control={form.control}
              name="group"
              render={({ field }) => (
                <FormItem className="sm:col-span-2">
                  <FormLabel>{t('fields.group')}</FormLabel>
                  <FormControl>
                    <TagInput
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      suggestions={groups}
                      allowCustom={false}
                      placeholder={t('form.groupPlaceholder')}
                      removeLabel={(g) => t('form.removeValue', { value: g })}
                    />
                  </FormControl>
                  <FormDescription>{t('form.groupHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <InputField control={form.control} name="tag" label={t('fields.tag')} placeholder={t('form.tagPlaceholder')} description={t('form.tagHint')} />
            <ChannelsTestModelField form={form} />
            <InputField control={form.control} name="priority" type="number" inputMode="numeric" min={0} label={t('fields.priority')} description={t('form.priorityHint')} />
            <InputField control={form.control} name="weight" type="number" inputMode="numeric" min={1} label={t('fields.weight')} description={t('form.weightHint')} />

            <Separator className="sm:col-span-2" />
            <SectionTitle>{t('form.sectionAdvanced')}</SectionTitle>
            <InputField
              control={form.control}
              name="proxy"
              label={t('fields.proxy')}
              className="sm:col-span-2"
              placeholder="socks5://127.0.0.1:1080"
              description={t('form.proxyHint')}
            />
            <TextareaField
              control={form.control}
              name="custom_parameter"
              label={t('fields.customParameter')}
              rows={3}
              textareaClassName="font-mono text-xs"
              spellCheck={false}
              placeholder='{"temperature": 0.7}'
              description={t('form.customParameterHint')}
            />
            <TextareaField
              control={form.control}
              name="model_headers"
              label={t('fields.modelHeaders')}
              rows={3}
              textareaClassName="font-mono text-xs"
              spellCheck={false}
              placeholder='{"X-Custom": "value"}'
              description={t('form.modelHeadersHint')}
            />
            <ChannelsPluginField form={form} typeId={Number(typeId)} />
            <SwitchField control={form.control} name="only_chat" label={t('fields.onlyChat')} description={t('form.onlyChatHint')} />
            <SwitchField control={form.control} name="auto_ban" label={t('fields.autoBanAllowed')} description={t('form.autoBanHint')} />
            <InputField
              control={form.control}
              name="auto_disable_threshold"
              type="number"
              inputMode="numeric"
              min={0}
              label={t('fields.autoDisableThreshold')}
              description={t('form.autoDisableThresholdHint')}
            />
            <InputField
              control={form.control}
              name="auto_disable_window"
              type="number"
              inputMode="numeric"
              min={0}
              label={t('fields.autoDisableWindow')}
              description={t('form.autoDisableWindowHint')}
            />
            {channel && (
              <>
                <Separator className="sm:col-span-2" />
                <SectionTitle>{t('form.sectionHealth')}</SectionTitle>
                <ChannelsHealth channelId={channel.id} />
              </>
            )}
          </form>
        </Form>
      </div>
      <div className="flex justify-end gap-2 border-t px-6 py-4">
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" form="channel-form" disabled={pending} data-testid="channel-submit">
          {pending && <Loader2 className="animate-spin" />}
          {edit ? t('form.save') : keyCount > 1 && !pool ? t('form.createMany', { count: keyCount }) : t('form.create')}
        </Button>
      </div>
    </>
  )
}
