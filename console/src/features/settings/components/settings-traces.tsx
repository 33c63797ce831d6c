/**
 * System → OpenTelemetry traces: the collector's base URL (OtlpEndpoint; empty turns tracing off),
 * its headers (OtlpHeaders, write-only: a JSON object or k=v,k2=v2), the share of relay requests
 * traced (OtlpSampleRate, 0–1) and whether prompt and answer text go on the spans
 * (OtlpRecordContent). The system page (/panel/system) sends a test span and shows the exports.
 */
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { SwitchField } from '@/components/form-fields'
import type { OptionMap } from '../api'
import { numberText, urlText } from '../schema'
import { isConfigured, plainCodec } from '../values'
import { FieldGrid, NumberField, TextField } from './settings-fields'
import { SecretField } from './settings-secret-field'
import { SettingsSection } from './settings-section'

const tracesSchema = z.object({
  OtlpEndpoint: urlText,
  OtlpHeaders: z.string(),
  OtlpSampleRate: numberText('OtlpSampleRate'),
  OtlpRecordContent: z.boolean(),
})
const tracesCodec = plainCodec(tracesSchema, { stripSlash: ['OtlpEndpoint'] })

export function TracesSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="traces"
      title={t('sections.traces.title')}
      description={t('sections.traces.description')}
      options={options}
      schema={tracesSchema}
      {...tracesCodec}
      footnote={
        <p className="text-xs text-muted-foreground">
          <Link to="/panel/system" className="font-medium text-foreground underline underline-offset-4">
            {t('traces.openSystem')}
          </Link>
        </p>
      }
    >
      {(form) => (
        <FieldGrid className="xl:grid-cols-2">
          <TextField
            control={form.control}
            name="OtlpEndpoint"
            label={t('fields.OtlpEndpoint.label')}
            description={t('fields.OtlpEndpoint.help')}
            placeholder="https://otel-collector.example.com:4318"
            inputMode="url"
            mono
          />
          <SecretField
            control={form.control}
            name="OtlpHeaders"
            label={t('fields.OtlpHeaders.label')}
            description={t('fields.OtlpHeaders.help')}
            configured={isConfigured(options, 'OtlpHeaders')}
          />
          <NumberField control={form.control} name="OtlpSampleRate" label={t('fields.OtlpSampleRate.label')} description={t('fields.OtlpSampleRate.help')} />
          <SwitchField control={form.control} name="OtlpRecordContent" label={t('fields.OtlpRecordContent.label')} description={t('fields.OtlpRecordContent.help')} />
        </FieldGrid>
      )}
    </SettingsSection>
  )
}
