/**
 * The channel form's plugin parameters (one-hub's `plugin` JSON): a text box per parameter of
 * the plugins this channel type applies (shared/contract/channel-plugins.ts), and every other
 * stored plugin listed as "not used by this channel type" (kept as imported, never applied).
 * The form keeps the whole plugin JSON as text; the server validates it and names the field.
 */
import { useId } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Input } from '@/components/ui/input'
import { FormField, FormItem, FormMessage } from '@/components/ui/form'
import { APPLIED_PLUGINS, parsePlugin, unusedPlugins, type ChannelPlugin } from '@contract/channel-plugins'
import type { ChannelFormValues } from '../schema'

export function ChannelsPluginField({ form, typeId }: { form: UseFormReturn<ChannelFormValues>; typeId: number }) {
  const { t } = useTranslation('channels')
  const id = useId()
  const text = useWatch({ control: form.control, name: 'plugin' })
  const plugin = parsePlugin(text)
  const applied = Object.entries(APPLIED_PLUGINS[typeId] ?? {})
  const unused = unusedPlugins(typeId, plugin)
  if (applied.length === 0 && unused.length === 0) return null

  const setParam = (name: string, param: string, value: string) => {
    const next: ChannelPlugin = { ...plugin, [name]: { ...plugin[name], [param]: value } }
    if (!value) delete next[name]![param]
    if (Object.keys(next[name]!).length === 0) delete next[name]
    form.setValue('plugin', Object.keys(next).length ? JSON.stringify(next) : '', { shouldDirty: true })
  }

  return (
    <FormField
      control={form.control}
      name="plugin"
      render={() => (
        <FormItem className="sm:col-span-2" data-testid="channel-plugins">
          <p className="text-sm font-medium">{t('plugins.title')}</p>
          {applied.map(([name, spec]) => (
            <fieldset key={name} className="grid gap-2 rounded-lg border p-3 sm:grid-cols-2">
              <legend className="px-1 text-xs text-muted-foreground">{t(`plugins.names.${name}`, { defaultValue: name })}</legend>
              <p className="text-xs text-muted-foreground sm:col-span-2">{t(`plugins.hints.${name}`, { defaultValue: '' })}</p>
              {spec.params.map((param) => (
                <div key={param} className="grid gap-1 text-xs">
                  <label htmlFor={`${id}-${name}-${param}`}>{t(`plugins.params.${name}.${param}`, { defaultValue: param })}</label>
                  <Input
                    id={`${id}-${name}-${param}`}
                    value={String(plugin[name]?.[param] ?? '')}
                    onChange={(e) => setParam(name, param, e.target.value)}
                    className="h-8 font-mono text-xs"
                    spellCheck={false}
                    data-testid={`plugin-${name}-${param}`}
                  />
                </div>
              ))}
            </fieldset>
          ))}
          {unused.length > 0 && (
            <ul className="grid gap-1 text-xs" data-testid="plugins-unused">
              {unused.map((name) => (
                <li key={name} className="flex items-center gap-2">
                  <code>{name}</code>
                  <Badge variant="outline" className="px-1.5 py-0 text-[11px]">
                    {t('plugins.unused')}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
          <FormMessage />
        </FormItem>
      )}
    />
  )
}
