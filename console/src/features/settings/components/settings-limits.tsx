/**
 * Operation → Output limits and image prices: the tables the relay's reservation reads (worker
 * billing/output-limits.ts and billing/image-ratios.ts) — the most tokens a model may answer
 * (ModelOutputLimits) and the size/quality ratios of image prices (ImagePriceRatios). Both are
 * overrides over built-in tables; {} keeps the built-in values.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { OptionMap } from '../api'
import { nestedNumberMapText, numberMapText } from '../schema'
import { compactJson, optionValue, prettyJson } from '../values'
import { SettingsTextareaField } from './settings-fields'
import { SettingsSection } from './settings-section'

const limitsSchema = z.object({ ModelOutputLimits: numberMapText(), ImagePriceRatios: nestedNumberMapText() })
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
        ImagePriceRatios: prettyJson(optionValue(o, 'ImagePriceRatios')),
      })}
      toOptions={(v) => ({ ModelOutputLimits: compactJson(v.ModelOutputLimits), ImagePriceRatios: compactJson(v.ImagePriceRatios) })}
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
