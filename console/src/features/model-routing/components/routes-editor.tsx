/**
 * Weighted routes (`ModelRoutes`) as cards: the requested model, its scope (every group, one
 * group, or one API key by id) and its target models with whole-number weights, each shown as its
 * share in percent with a bar of the split. One form, saved with the settings API (root only).
 */
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form'
import { Plus, Trash2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormControl, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { cn } from '@/lib/utils'
import type { OptionMap } from '@/features/settings/api'
import { SettingsSection } from '@/features/settings/components/settings-section'
import { optionValue } from '@/features/settings/values'
import { MAX_ROUTE_TARGETS } from '@contract/option-checks'
import { ROUTE_SCOPES, emptyRoute, emptyTarget, routesFormSchema, routesFromOption, routesToOption, weightPercents, type RoutesForm } from '../schema'
import { FieldError, IconButton, ListError } from './field-error'

const toForm = (options: OptionMap): RoutesForm => ({ ModelRoutes: routesFromOption(optionValue(options, 'ModelRoutes')) })
const toOptions = (v: RoutesForm) => ({ ModelRoutes: routesToOption(v.ModelRoutes) })

/** Colours of the split bar, one per target (cycled). */
const SHARE_COLORS = ['bg-chart-1', 'bg-chart-2', 'bg-chart-3', 'bg-chart-4', 'bg-chart-5']

export function RoutesSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('model-routing')
  return (
    <SettingsSection
      id="model-routes"
      title={t('routes.title')}
      description={t('routes.description')}
      options={options}
      schema={routesFormSchema}
      toForm={toForm}
      toOptions={toOptions}
    >
      {(form) => <RouteList form={form} />}
    </SettingsSection>
  )
}

function RouteList({ form }: { form: UseFormReturn<RoutesForm> }) {
  const { t } = useTranslation('model-routing')
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'ModelRoutes' })
  const error = form.formState.errors.ModelRoutes
  return (
    <div className="grid gap-3">
      {fields.length === 0 && <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{t('routes.empty')}</p>}
      {fields.map((row, i) => (
        <RouteCard key={row.id} form={form} index={i} onRemove={() => remove(i)} />
      ))}
      <ListError message={error?.message ?? error?.root?.message} server={error?.type === 'server'} />
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => append(emptyRoute(), { shouldFocus: true })} data-testid="routes-add">
          <Plus />
          {t('routes.add')}
        </Button>
      </div>
    </div>
  )
}

function RouteCard({ form, index, onRemove }: { form: UseFormReturn<RoutesForm>; index: number; onRemove: () => void }) {
  const { t } = useTranslation('model-routing')
  const { fields, append, remove } = useFieldArray({ control: form.control, name: `ModelRoutes.${index}.targets` })
  const scope = useWatch({ control: form.control, name: `ModelRoutes.${index}.scope` })
  const targets = useWatch({ control: form.control, name: `ModelRoutes.${index}.targets` }) ?? []
  const percents = weightPercents(targets.map((x) => x?.weight ?? ''))
  const targetsError = form.formState.errors.ModelRoutes?.[index]?.targets
  return (
    <fieldset className="grid gap-4 rounded-lg border bg-muted/20 p-3 sm:p-4 dark:bg-input/10" data-testid="route-card">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_minmax(0,1fr)_auto] sm:items-start">
        <FormField
          control={form.control}
          name={`ModelRoutes.${index}.model`}
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel className="text-xs">{t('routes.model')}</FormLabel>
              <FormControl>
                <Input {...field} placeholder="gpt-4o" className="font-mono text-xs md:text-xs" spellCheck={false} data-testid="route-model" />
              </FormControl>
              <FieldError />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name={`ModelRoutes.${index}.scope`}
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel className="text-xs">{t('routes.scope')}</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger className="w-full" data-testid="route-scope">
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {ROUTE_SCOPES.map((s) => (
                    <SelectItem key={s} value={s}>
                      {t(`routes.scopes.${s}`)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormItem>
          )}
        />
        {scope === 'all' ? (
          <p className="hidden text-xs text-muted-foreground sm:block sm:pt-7">{t('routes.scopeAllHint')}</p>
        ) : (
          <FormField
            key={scope}
            control={form.control}
            name={scope === 'group' ? `ModelRoutes.${index}.group` : `ModelRoutes.${index}.token_id`}
            render={({ field }) => (
              <FormItem className="gap-1">
                <FormLabel className="text-xs">{scope === 'group' ? t('routes.group') : t('routes.key')}</FormLabel>
                <FormControl>
                  <Input {...field} inputMode={scope === 'key' ? 'numeric' : undefined} placeholder={scope === 'group' ? 'vip' : '42'} data-testid="route-scope-value" />
                </FormControl>
                <FieldError />
              </FormItem>
            )}
          />
        )}
        <div className="flex justify-end sm:pt-5">
          <IconButton label={t('routes.remove')} onClick={onRemove} data-testid="route-remove">
            <Trash2 className="text-muted-foreground" />
          </IconButton>
        </div>
      </div>

      <div className="grid gap-2">
        <p className="text-xs font-medium text-muted-foreground">{t('routes.targets')}</p>
        <div className="flex h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          {percents.map((p, j) => (
            <div key={fields[j]?.id ?? j} className={cn('h-full', SHARE_COLORS[j % SHARE_COLORS.length])} style={{ width: `${p}%` }} />
          ))}
        </div>
        {fields.map((target, j) => (
          <div
            key={target.id}
            className="grid grid-cols-[minmax(0,1fr)_4rem_3rem_auto] items-start gap-1.5 sm:grid-cols-[minmax(0,1fr)_6rem_3.5rem_auto] sm:gap-2"
            data-testid="route-target"
          >
            <FormField
              control={form.control}
              name={`ModelRoutes.${index}.targets.${j}.model`}
              render={({ field }) => (
                <FormItem className="gap-1">
                  <FormControl>
                    <Input
                      {...field}
                      aria-label={t('routes.targetModel')}
                      placeholder="gpt-4.1"
                      className="font-mono text-xs md:text-xs"
                      spellCheck={false}
                      data-testid="target-model"
                    />
                  </FormControl>
                  <FieldError />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name={`ModelRoutes.${index}.targets.${j}.weight`}
              render={({ field }) => (
                <FormItem className="gap-1">
                  <FormControl>
                    <Input {...field} aria-label={t('routes.weight')} inputMode="numeric" className="tabular-nums" data-testid="target-weight" />
                  </FormControl>
                  <FieldError />
                </FormItem>
              )}
            />
            <span className="flex h-9 items-center justify-end text-sm tabular-nums text-muted-foreground" data-testid="target-percent">
              {t('routes.percent', { value: percents[j] ?? 0 })}
            </span>
            <IconButton label={t('routes.removeTarget')} onClick={() => remove(j)} disabled={fields.length === 1}>
              <X className="text-muted-foreground" />
            </IconButton>
          </div>
        ))}
        <ListError message={targetsError?.message ?? targetsError?.root?.message} />
        <div>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => append(emptyTarget(), { shouldFocus: true })}
            disabled={fields.length >= MAX_ROUTE_TARGETS}
            data-testid="target-add"
          >
            <Plus />
            {t('routes.addTarget')}
          </Button>
        </div>
      </div>
    </fieldset>
  )
}
