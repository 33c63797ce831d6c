/**
 * Operation → Content safety: sensitive words in prompts and answers (new-api's CheckSensitiveEnabled,
 * CheckSensitiveOnPromptEnabled, CheckSensitiveOnCompletionEnabled and SensitiveWords, one per line) with what happens to a prompt
 * that holds one (SensitiveWordsAction: refuse with 400, or mask with ***), and personal-data
 * masking (PiiMaskingEnabled, overridden per group by the PiiMaskingGroups JSON map). The relay
 * side is worker/relay/policies/content-safety.ts.
 */
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { SwitchField } from '@/components/form-fields'
import type { OptionMap } from '../api'
import { compactJson, optionValue, prettyJson } from '../values'
import { FieldGrid, FieldMessage, SettingsTextareaField } from './settings-fields'
import { SettingsSection } from './settings-section'

const msg = (key: string) => `settings:validation.${key}`

/** A JSON object of group → true/false. */
const groupSwitchesText = z.string().superRefine((raw, ctx) => {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw.trim() || '{}')
  } catch {
    ctx.addIssue({ code: 'custom', message: msg('json') })
    return
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) ctx.addIssue({ code: 'custom', message: msg('jsonObject') })
  else if (Object.keys(parsed).some((k) => k.trim() === '')) ctx.addIssue({ code: 'custom', message: msg('jsonKeys') })
  else if (Object.values(parsed).some((v) => typeof v !== 'boolean')) ctx.addIssue({ code: 'custom', message: msg('jsonBooleans') })
})

const schema = z.object({
  CheckSensitiveEnabled: z.boolean(),
  CheckSensitiveOnPromptEnabled: z.boolean(),
  CheckSensitiveOnCompletionEnabled: z.boolean(),
  SensitiveWordsAction: z.enum(['refuse', 'mask']),
  SensitiveWords: z.string(),
  PiiMaskingEnabled: z.boolean(),
  PiiMaskingGroups: groupSwitchesText,
})
type Values = z.infer<typeof schema>

/** Words one per line, without blank lines, stray spaces or repeats. */
const cleanWords = (text: string) => [...new Set(text.split('\n').map((l) => l.trim()))].filter(Boolean).join('\n')

const toForm = (o: OptionMap): Values => ({
  CheckSensitiveEnabled: optionValue(o, 'CheckSensitiveEnabled') === 'true',
  CheckSensitiveOnPromptEnabled: optionValue(o, 'CheckSensitiveOnPromptEnabled') === 'true',
  CheckSensitiveOnCompletionEnabled: optionValue(o, 'CheckSensitiveOnCompletionEnabled') === 'true',
  SensitiveWordsAction: optionValue(o, 'SensitiveWordsAction') === 'mask' ? 'mask' : 'refuse',
  SensitiveWords: optionValue(o, 'SensitiveWords'),
  PiiMaskingEnabled: optionValue(o, 'PiiMaskingEnabled') === 'true',
  PiiMaskingGroups: prettyJson(optionValue(o, 'PiiMaskingGroups') || '{}'),
})

const toOptions = (v: Values) => ({
  CheckSensitiveEnabled: String(v.CheckSensitiveEnabled),
  CheckSensitiveOnPromptEnabled: String(v.CheckSensitiveOnPromptEnabled),
  CheckSensitiveOnCompletionEnabled: String(v.CheckSensitiveOnCompletionEnabled),
  SensitiveWordsAction: v.SensitiveWordsAction,
  SensitiveWords: cleanWords(v.SensitiveWords),
  PiiMaskingEnabled: String(v.PiiMaskingEnabled),
  PiiMaskingGroups: compactJson(v.PiiMaskingGroups.trim() || '{}'),
})

export function ContentSafetySection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection
      id="content-safety"
      title={t('sections.contentSafety.title')}
      description={t('sections.contentSafety.description')}
      options={options}
      schema={schema}
      toForm={toForm}
      toOptions={toOptions}
    >
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <SwitchField control={form.control} name="CheckSensitiveEnabled" label={t('fields.CheckSensitiveEnabled.label')} description={t('fields.CheckSensitiveEnabled.help')} />
            <SwitchField
              control={form.control}
              name="CheckSensitiveOnPromptEnabled"
              label={t('fields.CheckSensitiveOnPromptEnabled.label')}
              description={t('fields.CheckSensitiveOnPromptEnabled.help')}
            />
            <SwitchField
              control={form.control}
              name="CheckSensitiveOnCompletionEnabled"
              label={t('fields.CheckSensitiveOnCompletionEnabled.label')}
              description={t('fields.CheckSensitiveOnCompletionEnabled.help')}
            />
            <FormField
              control={form.control}
              name="SensitiveWordsAction"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.SensitiveWordsAction.label')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger name="SensitiveWordsAction" className="w-full" data-testid="sensitive-words-action-select">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value="refuse">{t('fields.SensitiveWordsAction.refuse')}</SelectItem>
                      <SelectItem value="mask">{t('fields.SensitiveWordsAction.mask')}</SelectItem>
                    </SelectContent>
                  </Select>
                  <FormDescription className="text-xs">{t('fields.SensitiveWordsAction.help')}</FormDescription>
                  <FieldMessage />
                </FormItem>
              )}
            />
            <SwitchField control={form.control} name="PiiMaskingEnabled" label={t('fields.PiiMaskingEnabled.label')} description={t('fields.PiiMaskingEnabled.help')} />
          </FieldGrid>
          <FieldGrid className="xl:grid-cols-2">
            <SettingsTextareaField
              control={form.control}
              name="SensitiveWords"
              label={t('fields.SensitiveWords.label')}
              description={t('fields.SensitiveWords.help')}
              rows={8}
              mono
            />
            <SettingsTextareaField
              control={form.control}
              name="PiiMaskingGroups"
              label={t('fields.PiiMaskingGroups.label')}
              description={t('fields.PiiMaskingGroups.help')}
              placeholder='{"vip": false}'
              rows={8}
              mono
            />
          </FieldGrid>
        </>
      )}
    </SettingsSection>
  )
}
