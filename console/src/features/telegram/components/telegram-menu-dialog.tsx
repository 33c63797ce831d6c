/**
 * Create or edit one bot menu: the command (without the slash), its description in Telegram's
 * command list, the message type (parse mode) and the reply. Saved menus reach the bot only after
 * Reload, which the dialog says.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { InputField, TextareaField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { PARSE_MODES, useSaveMenu, type TelegramMenu } from '../api'
import { menuFormSchema, type MenuFormValues } from '../schema'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  row?: TelegramMenu
}

export function TelegramMenuDialog({ open, onOpenChange, row }: Props) {
  const { t } = useTranslation('telegram')
  const save = useSaveMenu()
  const form = useForm<MenuFormValues>({
    resolver: zodResolver(menuFormSchema),
    defaultValues: { command: row?.command ?? '', description: row?.description ?? '', parse_mode: row?.parse_mode ?? 'plain', reply_message: row?.reply_message ?? '' },
  })

  const onSubmit = (v: MenuFormValues) =>
    save.mutate({ id: row?.id, ...v, command: v.command.replace(/^\//, '') }, { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) })

  return (
    <Dialog open={open} onOpenChange={(o) => !save.isPending && onOpenChange(o)}>
      <DialogContent data-testid="telegram-menu-dialog" className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{row ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{t('form.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="telegram-menu-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField control={form.control} name="command" label={t('fields.command')} description={t('form.commandHint')} autoComplete="off" placeholder="faq" />
              <FormField
                control={form.control}
                name="parse_mode"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t('fields.parseMode')}</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange}>
                      <FormControl>
                        <SelectTrigger name="parse_mode" className="w-full" data-testid="telegram-parse-mode">
                          <SelectValue />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        {PARSE_MODES.map((m) => (
                          <SelectItem key={m} value={m}>
                            {t(`parseModes.${m}`)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormDescription>{t('form.parseModeHint')}</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            <InputField control={form.control} name="description" label={t('fields.description')} description={t('form.descriptionHint')} autoComplete="off" />
            <TextareaField control={form.control} name="reply_message" label={t('fields.reply')} textareaClassName="min-h-32 font-mono text-sm" />
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="telegram-menu-form" disabled={save.isPending} data-testid="telegram-menu-save">
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
