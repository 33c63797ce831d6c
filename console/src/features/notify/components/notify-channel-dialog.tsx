/**
 * Create or edit one alert channel: name and type, then the type's own fields — the webhook URL,
 * the write-only secret (a stored one is kept when the box is left empty), the Telegram chat id or
 * email address — the events it receives, and enabled.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { InputField, PasswordField, SwitchField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { NOTIFY_CHANNEL_TYPES, NOTIFY_EVENT_LIST } from '@contract/notify'
import { type NotifyChannelView, useSaveChannel } from '../api'
import { CONFIG_FIELD, channelFormSchema, type ChannelFormValues, formDefaults, SECRET_TYPES, toBody, URL_TYPES } from '../schema'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  row?: NotifyChannelView
}

export function NotifyChannelDialog({ open, onOpenChange, row }: Props) {
  const { t } = useTranslation('notify')
  const save = useSaveChannel()
  const form = useForm<ChannelFormValues>({ resolver: zodResolver(channelFormSchema), defaultValues: formDefaults(row) })
  const type = useWatch({ control: form.control, name: 'type' })
  const configField = CONFIG_FIELD[type]
  const onSubmit = (v: ChannelFormValues) =>
    save.mutate(
      { id: row?.id, ...toBody(v) },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyFieldErrors(form, err),
      }
    )

  return (
    <Dialog open={open} onOpenChange={(o) => !save.isPending && onOpenChange(o)}>
      <DialogContent data-testid="notify-channel-dialog" className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{row ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{t('form.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="notify-channel-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField control={form.control} name="name" label={t('fields.name')} autoComplete="off" placeholder="ops" />
              <FormField
                control={form.control}
                name="type"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t('fields.type')}</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange}>
                      <FormControl>
                        <SelectTrigger name="type" className="w-full" data-testid="notify-type">
                          <SelectValue />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        {NOTIFY_CHANNEL_TYPES.map((ty) => (
                          <SelectItem key={ty} value={ty}>
                            {t(`types.${ty}`)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            {URL_TYPES.includes(type) && (
              <InputField control={form.control} name="url" label={t('fields.url')} description={t(`urlHints.${type}`)} autoComplete="off" placeholder="https://" />
            )}
            {SECRET_TYPES.includes(type) && (
              <PasswordField
                control={form.control}
                name="secret"
                label={t('fields.secret')}
                description={`${t(`secretHints.${type}`)} ${row?.has_secret ? t('form.secretStored') : ''}`}
                autoComplete="new-password"
                optional
              />
            )}
            {configField && (
              <InputField
                control={form.control}
                name="target"
                label={t(`fields.${configField}`)}
                description={t(`configHints.${configField}`)}
                autoComplete="off"
                placeholder={configField === 'address' ? 'ops@example.com' : '-1001234567890'}
              />
            )}
            <FormField
              control={form.control}
              name="events"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.events')}</FormLabel>
                  <div className="grid gap-2 sm:grid-cols-2">
                    {NOTIFY_EVENT_LIST.map((ev) => (
                      <div key={ev} className="flex items-start gap-2 rounded-md border p-2 text-sm">
                        <Checkbox
                          id={`notify-event-${ev}`}
                          checked={field.value.includes(ev)}
                          onCheckedChange={(on) => field.onChange(on ? [...field.value, ev] : field.value.filter((e) => e !== ev))}
                          data-testid={`notify-event-${ev}`}
                        />
                        <label htmlFor={`notify-event-${ev}`} className="grid cursor-pointer gap-0.5">
                          <code className="font-mono text-xs">{ev}</code>
                          <span className="text-xs text-muted-foreground">{t(`events.${ev.replace('.', '_')}`)}</span>
                        </label>
                      </div>
                    ))}
                  </div>
                  <FormMessage />
                </FormItem>
              )}
            />
            <SwitchField control={form.control} name="enabled" label={t('fields.enabled')} />
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="notify-channel-form" disabled={save.isPending} data-testid="notify-channel-save">
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
