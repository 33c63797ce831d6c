/**
 * Cross-model fallbacks (`ModelFallbacks`) as cards: a model and the ordered models the relay tries
 * when none of its channels answers, each movable up and down, removable, and added at the end (at
 * most the server's limit per model). One form, saved with the settings API (root only).
 */
import { useFieldArray, type UseFormReturn } from 'react-hook-form'
import { ArrowDown, ArrowUp, Plus, Trash2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import type { OptionMap } from '@/features/settings/api'
import { SettingsSection } from '@/features/settings/components/settings-section'
import { optionValue } from '@/features/settings/values'
import { MAX_FALLBACKS_PER_MODEL } from '@contract/option-checks'
import { emptyFallback, fallbacksFormSchema, fallbacksFromOption, fallbacksToOption, type FallbacksForm } from '../schema'
import { FieldError, IconButton, ListError } from './field-error'

const toForm = (options: OptionMap): FallbacksForm => ({ ModelFallbacks: fallbacksFromOption(optionValue(options, 'ModelFallbacks')) })
const toOptions = (v: FallbacksForm) => ({ ModelFallbacks: fallbacksToOption(v.ModelFallbacks) })

export function FallbacksSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('model-routing')
  return (
    <SettingsSection
      id="model-fallbacks"
      title={t('fallbacks.title')}
      description={t('fallbacks.description')}
      options={options}
      schema={fallbacksFormSchema}
      toForm={toForm}
      toOptions={toOptions}
    >
      {(form) => <FallbackList form={form} />}
    </SettingsSection>
  )
}

function FallbackList({ form }: { form: UseFormReturn<FallbacksForm> }) {
  const { t } = useTranslation('model-routing')
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'ModelFallbacks' })
  const error = form.formState.errors.ModelFallbacks
  return (
    <div className="grid gap-3">
      {fields.length === 0 && <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{t('fallbacks.empty')}</p>}
      {fields.map((row, i) => (
        <FallbackCard key={row.id} form={form} index={i} onRemove={() => remove(i)} />
      ))}
      <ListError message={error?.message ?? error?.root?.message} server={error?.type === 'server'} />
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => append(emptyFallback(), { shouldFocus: true })} data-testid="fallbacks-add">
          <Plus />
          {t('fallbacks.add')}
        </Button>
      </div>
    </div>
  )
}

function FallbackCard({ form, index, onRemove }: { form: UseFormReturn<FallbacksForm>; index: number; onRemove: () => void }) {
  const { t } = useTranslation('model-routing')
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: `ModelFallbacks.${index}.fallbacks` })
  const listError = form.formState.errors.ModelFallbacks?.[index]?.fallbacks
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-muted/20 p-3 sm:p-4 dark:bg-input/10" data-testid="fallback-card">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2">
        <FormField
          control={form.control}
          name={`ModelFallbacks.${index}.model`}
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel className="text-xs">{t('fallbacks.model')}</FormLabel>
              <FormControl>
                <Input {...field} placeholder="gpt-4o" className="font-mono text-xs md:text-xs" spellCheck={false} data-testid="fallback-model" />
              </FormControl>
              <FieldError />
            </FormItem>
          )}
        />
        <div className="pt-5">
          <IconButton label={t('fallbacks.remove')} onClick={onRemove} data-testid="fallback-remove">
            <Trash2 className="text-muted-foreground" />
          </IconButton>
        </div>
      </div>
      <div className="grid gap-2">
        <p className="text-xs font-medium text-muted-foreground">{t('fallbacks.order')}</p>
        <ol className="grid gap-2">
          {fields.map((item, j) => (
            <li key={item.id} className="grid grid-cols-[1.5rem_minmax(0,1fr)_auto] items-start gap-1 sm:gap-2" data-testid="fallback-item">
              <span className="flex h-9 items-center justify-center text-xs tabular-nums text-muted-foreground">{j + 1}</span>
              <FormField
                control={form.control}
                name={`ModelFallbacks.${index}.fallbacks.${j}.model`}
                render={({ field }) => (
                  <FormItem className="gap-1">
                    <FormControl>
                      <Input
                        {...field}
                        aria-label={t('fallbacks.fallbackModel', { n: j + 1 })}
                        placeholder="gpt-4.1"
                        className="font-mono text-xs md:text-xs"
                        spellCheck={false}
                        data-testid="fallback-target"
                      />
                    </FormControl>
                    <FieldError />
                  </FormItem>
                )}
              />
              <div className="flex">
                <IconButton label={t('fallbacks.up')} onClick={() => move(j, j - 1)} disabled={j === 0} data-testid="fallback-up">
                  <ArrowUp className="text-muted-foreground" />
                </IconButton>
                <IconButton label={t('fallbacks.down')} onClick={() => move(j, j + 1)} disabled={j === fields.length - 1} data-testid="fallback-down">
                  <ArrowDown className="text-muted-foreground" />
                </IconButton>
                <IconButton label={t('fallbacks.removeItem')} onClick={() => remove(j)} disabled={fields.length === 1}>
                  <X className="text-muted-foreground" />
                </IconButton>
              </div>
            </li>
          ))}
        </ol>
        <ListError message={listError?.message ?? listError?.root?.message} />
        <div>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => append({ model: '' }, { shouldFocus: true })}
            disabled={fields.length >= MAX_FALLBACKS_PER_MODEL}
            data-testid="fallback-item-add"
          >
            <Plus />
            {t('fallbacks.addItem')}
          </Button>
        </div>
      </div>
    </fieldset>
  )
}
