/**
 * Operation → Output limits and image prices: the tables the relay's reservation reads (worker
 * billing/output-limits.ts and billing/image-ratios.ts) — the most tokens a model may answer
 * (ModelOutputLimits), the prompt estimate's margin per model family (PromptEstimateMargins) and
 * the size/quality ratios of image prices (ImagePriceRatios). All are overrides over built-in
 * tables; {} keeps the built-in values.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { OptionMap } from '../api'
import { nestedNumberMapText, numberMapText } from '../schema'
import { compactJson, optionValue, prettyJson } from '../values'
import { SettingsTextareaField } from './settings-fields'
import { SettingsSection } from './settings-section'

const limitsSchema = z.object({ ModelOutputLimits: numberMapText(), PromptEstimateMargins: numberMapText(), ImagePriceRatios: nestedNumberMapText() })
type LimitsValues = z.infer<typeof limitsSchema>

export function LimitsSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="limits"
      title={t('sections.limits.title')}
      description={t('sections.limits.description')}
      options={options}
      schema={limitsSchema}
      toForm={(o): LimitsValues => ({
        ModelOutputLimits: prettyJson(optionValue(o, 'ModelOutputLimits')),
        PromptEstimateMargins: prettyJson(optionValue(o, 'PromptEstimateMargins')),
        ImagePriceRatios: prettyJson(optionValue(o, 'ImagePriceRatios')),
      })}
      toOptions={(v) => ({
        ModelOutputLimits: compactJson(v.ModelOutputLimits),
        PromptEstimateMargins: compactJson(v.PromptEstimateMargins),
        ImagePriceRatios: compactJson(v.ImagePriceRatios),
      })}
      footnote={<p>{t('limits.note')}</p>}
    >
      {(form) => (
        <>
          <SettingsTextareaField
            control={form.control}
            name="ModelOutputLimits"
            label={t('fields.ModelOutputLimits.label')}
            description={t('fields.ModelOutputLimits.help')}
            placeholder={'{\n  "gpt-4o*": 16384,\n  "my-model": 8192\n}'}
            rows={5}
            mono
          />
          <SettingsTextareaField
            control={form.control}
            name="PromptEstimateMargins"
            label={t('fields.PromptEstimateMargins.label')}
            description={t('fields.PromptEstimateMargins.help')}
            placeholder={'{\n  "claude*": 1.3,\n  "my-model": 1.2\n}'}
            rows={4}
            mono
          />
          <SettingsTextareaField
            control={form.control}
            name="ImagePriceRatios"
            label={t('fields.ImagePriceRatios.label')}
            description={t('fields.ImagePriceRatios.help')}
            placeholder={'{\n  "dall-e-3": { "hd|1024x1024": 2, "1792x1024": 2 }\n}'}
            rows={5}
            mono
          />
        </>
      )}
    </SettingsSection>
  )
}
