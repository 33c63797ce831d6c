/**
 * Operation → Model routing: root's cross-model fallbacks (ModelFallbacks), model → the models the
 * relay tries in order when none of the requested model's channels answers (worker
 * relay/model-fallbacks.ts), and weighted routes (ModelRoutes), a requested model — optionally for
 * one group — split between target models by weight (worker relay/model-routes.ts). Both are
 * checked here with the server's own schemas; the server checks them again on save.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { modelFallbacksSchema, modelRoutesSchema } from '@contract/option-checks'
import type { OptionMap } from '../api'
import { jsonText, jsonValueText } from '../schema'
import { compactJson, optionValue, prettyJson } from '../values'
import { SettingsTextareaField } from './settings-fields'
import { SettingsSection } from './settings-section'

const routingSchema = z.object({
  ModelFallbacks: jsonText((v) => modelFallbacksSchema.safeParse(v).success, 'modelFallbacks'),
  ModelRoutes: jsonValueText((v) => modelRoutesSchema.safeParse(v).success, 'modelRoutes'),
})
type RoutingValues = z.infer<typeof routingSchema>

export function RoutingSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="routing"
      title={t('sections.routing.title')}
      description={t('sections.routing.description')}
      options={options}
      schema={routingSchema}
      toForm={(o): RoutingValues => ({ ModelFallbacks: prettyJson(optionValue(o, 'ModelFallbacks')), ModelRoutes: prettyJson(optionValue(o, 'ModelRoutes')) })}
      toOptions={(v) => ({ ModelFallbacks: compactJson(v.ModelFallbacks), ModelRoutes: compactJson(v.ModelRoutes) })}
    >
      {(form) => (
        <>
          <SettingsTextareaField
            control={form.control}
            name="ModelFallbacks"
            label={t('fields.ModelFallbacks.label')}
            description={t('fields.ModelFallbacks.help')}
            placeholder={'{\n  "gpt-4o": ["gpt-4.1", "claude-sonnet-4"],\n  "deepseek-chat": ["qwen-plus"]\n}'}
            rows={6}
            mono
          />
          <SettingsTextareaField
            control={form.control}
            name="ModelRoutes"
            label={t('fields.ModelRoutes.label')}
            description={t('fields.ModelRoutes.help')}
            placeholder={
              '[\n  { "model": "gpt-4o", "targets": [{ "model": "gpt-4o", "weight": 90 }, { "model": "gpt-4.1", "weight": 10 }] },\n  { "model": "gpt-4o", "group": "vip", "targets": [{ "model": "gpt-4.1", "weight": 1 }] }\n]'
            }
            rows={8}
            mono
          />
        </>
      )}
    </SettingsSection>
  )
}
