/**
 * Settings of the conversation (react-hook-form + zod): the key that pays (the hidden playground
 * key or one of the user's enabled keys), a model that key may use, the system prompt,
 * temperature (0–2) and an optional max tokens. Changes apply to the next message.
 */
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { Slider } from '@/components/ui/slider'
import { Textarea } from '@/components/ui/textarea'
import type { Token } from '@contract/tokens'
import { maskKey } from '../api'
import { PLAYGROUND_TOKEN, type PlaygroundSettings } from '../schema'

export function PlaygroundSettingsForm({
  form,
  tokens,
  models,
  modelsLoading,
}: {
  form: UseFormReturn<PlaygroundSettings>
  tokens: Token[] | undefined
  models: string[] | undefined
  modelsLoading: boolean
}) {
  const { t } = useTranslation('playground')
  return (
    <Form {...form}>
      <form className="grid gap-5" onSubmit={(e) => e.preventDefault()} data-testid="playground-settings">
        <FormField
          control={form.control}
          name="token"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('settings.key')}</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger data-testid="key-select">
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  <SelectItem value={PLAYGROUND_TOKEN}>{t('settings.playgroundKey')}</SelectItem>
                  {tokens?.map((token) => (
                    <SelectItem key={token.id} value={String(token.id)}>
                      <span className="flex min-w-0 items-center gap-2">
                        <span className="truncate">{token.name}</span>
                        <span className="font-mono text-xs text-muted-foreground">{maskKey(token.key)}</span>
                      </span>
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormDescription className="text-xs">{t('settings.keyHint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="model"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('settings.model')}</FormLabel>
              {modelsLoading ? (
                <Skeleton className="h-9 w-full" />
              ) : (
                <Select value={field.value} onValueChange={field.onChange} disabled={!models?.length}>
                  <FormControl>
                    <SelectTrigger data-testid="model-select">
                      <SelectValue placeholder={models?.length ? t('settings.modelPlaceholder') : t('settings.noModels')} />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent className="max-h-72">
                    {models?.map((model) => (
                      <SelectItem key={model} value={model} className="font-mono text-xs">
                        {model}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
              <FormDescription className="text-xs">{t('settings.modelHint', { count: models?.length ?? 0 })}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="system"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('settings.system')}</FormLabel>
              <FormControl>
                <Textarea {...field} rows={4} placeholder={t('settings.systemPlaceholder')} className="max-h-60 min-h-20 text-sm" />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="temperature"
          render={({ field }) => (
            <FormItem>
              <div className="flex items-center justify-between">
                <FormLabel>{t('settings.temperature')}</FormLabel>
                <span className="rounded-md border px-2 py-0.5 font-mono text-xs tabular-nums" data-testid="temperature-value">
                  {field.value.toFixed(1)}
                </span>
              </div>
              <FormControl>
                <Slider
                  min={0}
                  max={2}
                  step={0.1}
                  value={[field.value]}
                  onValueChange={([v]) => field.onChange(Math.round((v ?? 1) * 10) / 10)}
                  aria-label={t('settings.temperature')}
                />
              </FormControl>
              <FormDescription className="flex justify-between text-xs">
                <span>{t('settings.precise')}</span>
                <span>{t('settings.creative')}</span>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="max_tokens"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                {t('settings.maxTokens')}
                <span className="font-normal text-muted-foreground">{t('settings.optional')}</span>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" placeholder={t('settings.maxTokensPlaceholder')} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
      </form>
    </Form>
  )
}
