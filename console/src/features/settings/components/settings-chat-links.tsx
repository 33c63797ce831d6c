/**
 * Operation → Chat links (ChatLinks, saved as a JSON string): an editable table of chat clients —
 * name, URL template with {key} and {server}, shown or not, sort — with add/remove rows and a
 * reset to the four built-in clients.
 */
import { useFieldArray, type UseFormReturn } from 'react-hook-form'
import { Plus, RotateCcw, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormField, FormItem } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DEFAULT_CHAT_LINKS } from '@contract/settings'
import type { OptionMap } from '../api'
import { chatLinksSchema, type ChatLinksValues } from '../schema'
import { chatLinksFromOption, chatLinksToOption, chatLinksToRows, optionValue } from '../values'
import { FieldMessage } from './settings-fields'
import { SettingsSection } from './settings-section'

const toForm = (options: OptionMap): ChatLinksValues => ({ ChatLinks: chatLinksFromOption(optionValue(options, 'ChatLinks')) })
const toOptions = (v: ChatLinksValues) => ({ ChatLinks: chatLinksToOption(v.ChatLinks) })

export function ChatLinksSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="chat-links"
      title={t('sections.chatLinks.title')}
      description={t('sections.chatLinks.description')}
      options={options}
      schema={chatLinksSchema}
      toForm={toForm}
      toOptions={toOptions}
    >
      {(form) => <ChatLinksTable form={form} />}
    </SettingsSection>
  )
}

function ChatLinksTable({ form }: { form: UseFormReturn<ChatLinksValues> }) {
  const { t } = useTranslation('settings')
  const { fields, append, remove, replace } = useFieldArray({ control: form.control, name: 'ChatLinks' })
  const rootError = form.formState.errors.ChatLinks?.message ?? form.formState.errors.ChatLinks?.root?.message

  const addRow = () => {
    const sorts = form.getValues('ChatLinks').map((r) => Number(r.sort) || 0)
    append({ name: '', url: '', show: true, sort: String(sorts.length ? Math.max(...sorts) + 1 : 1) }, { shouldFocus: true })
  }

  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto rounded-lg border">
        <Table className="min-w-[760px]" data-testid="chat-links-table">
          <TableHeader>
            <TableRow className="bg-muted/50 hover:bg-muted/50">
              <TableHead className="w-[24%]">{t('chatLinks.name')}</TableHead>
              <TableHead>{t('chatLinks.url')}</TableHead>
              <TableHead className="w-20 text-center">{t('chatLinks.show')}</TableHead>
              <TableHead className="w-24">{t('chatLinks.sort')}</TableHead>
              <TableHead className="w-12">
                <span className="sr-only">{t('chatLinks.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {fields.length === 0 && (
              <TableRow>
                <TableCell colSpan={5} className="h-20 text-center text-muted-foreground">
                  {t('chatLinks.empty')}
                </TableCell>
              </TableRow>
            )}
            {fields.map((row, i) => (
              <TableRow key={row.id} className="align-top" data-testid="chat-link-row">
                <TableCell>
                  <FormField
                    control={form.control}
                    name={`ChatLinks.${i}.name`}
                    render={({ field }) => (
                      <FormItem className="gap-1">
                        <FormControl>
                          <Input {...field} aria-label={t('chatLinks.name')} placeholder={t('chatLinks.namePlaceholder')} />
                        </FormControl>
                        <FieldMessage />
                      </FormItem>
                    )}
                  />
                </TableCell>
                <TableCell>
                  <FormField
                    control={form.control}
                    name={`ChatLinks.${i}.url`}
                    render={({ field }) => (
                      <FormItem className="gap-1">
                        <FormControl>
                          <Input
                            {...field}
                            aria-label={t('chatLinks.url')}
                            placeholder="https://…?key={key}&server={server}"
                            className="font-mono text-xs md:text-xs"
                            spellCheck={false}
                          />
                        </FormControl>
                        <FieldMessage />
                      </FormItem>
                    )}
                  />
                </TableCell>
                <TableCell className="text-center">
                  <FormField
                    control={form.control}
                    name={`ChatLinks.${i}.show`}
                    render={({ field }) => (
                      <FormItem className="h-9 place-items-center">
                        <FormControl>
                          <Switch checked={field.value} onCheckedChange={field.onChange} aria-label={t('chatLinks.show')} />
                        </FormControl>
                      </FormItem>
                    )}
                  />
                </TableCell>
                <TableCell>
                  <FormField
                    control={form.control}
                    name={`ChatLinks.${i}.sort`}
                    render={({ field }) => (
                      <FormItem className="gap-1">
                        <FormControl>
                          <Input {...field} aria-label={t('chatLinks.sort')} inputMode="numeric" />
                        </FormControl>
                        <FieldMessage />
                      </FormItem>
                    )}
                  />
                </TableCell>
                <TableCell>
                  <Tooltip>
                    <TooltipTrigger asChild>
                      <Button type="button" variant="ghost" size="icon" onClick={() => remove(i)} aria-label={t('chatLinks.remove')}>
                        <Trash2 className="text-muted-foreground" />
                      </Button>
                    </TooltipTrigger>
                    <TooltipContent>{t('chatLinks.remove')}</TooltipContent>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {rootError && <p className="text-sm text-destructive">{form.formState.errors.ChatLinks?.type === 'server' ? rootError : t(rootError)}</p>}
      <p className="text-xs text-muted-foreground">{t('chatLinks.help')}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={addRow} data-testid="chat-links-add">
          <Plus />
          {t('chatLinks.add')}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={() => replace(chatLinksToRows(DEFAULT_CHAT_LINKS))}>
          <RotateCcw />
          {t('chatLinks.reset')}
        </Button>
      </div>
    </div>
  )
}
