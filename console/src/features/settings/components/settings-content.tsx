/**
 * Other tab: the site's texts and branding — notice (Markdown, shown once per change), home page
 * and about (Markdown/HTML, or a link shown in a frame), footer (HTML in the 64 px footer), system
 * name and logo. Each text has a live preview rendered the way the site renders it.
 */
import { useMemo, useState } from 'react'
import { useWatch, type Control } from 'react-hook-form'
import { Eye, EyeOff, Image as ImageIcon, ImageOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { MarkdownContent } from '@/components/markdown-content'
import { isEmbedUrl } from '@/lib/markdown'
import { sanitizeHtml } from '@/lib/sanitize'
import { cn } from '@/lib/utils'
import type { OptionMap } from '../api'
import { requiredText, urlText } from '../schema'
import { plainCodec } from '../values'
import { FieldGrid, SettingsTextareaField, TextField } from './settings-fields'
import { SettingsSection } from './settings-section'

type ContentKey = 'Notice' | 'HomePageContent' | 'About' | 'Footer'
type PreviewKind = 'markdown' | 'page' | 'footer'

function Preview({ kind, content }: { kind: PreviewKind; content: string }) {
  const { t } = useTranslation('settings')
  const footerHtml = useMemo(() => (kind === 'footer' ? sanitizeHtml(content) : ''), [kind, content])
  const text = content.trim()
  const frame = 'rounded-lg border bg-background'
  if (!text) {
    return (
      <div className={cn(frame, 'p-4 text-sm text-muted-foreground')} data-testid="content-preview">
        {t(kind === 'footer' ? 'content.emptyFooter' : kind === 'page' ? 'content.emptyPage' : 'content.emptyNotice', {
          year: new Date().getFullYear(),
        })}
      </div>
    )
  }
  if (kind === 'footer') {
    return (
      <div className={cn(frame, 'flex h-16 items-center justify-center px-4 text-center text-sm text-muted-foreground')} data-testid="content-preview">
        <div className="line-clamp-2 [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline" dangerouslySetInnerHTML={{ __html: footerHtml }} />
      </div>
    )
  }
  if (kind === 'page' && isEmbedUrl(text)) {
    return (
      <div className="grid gap-1.5" data-testid="content-preview">
        <iframe src={text} title={t('content.previewFrame')} className={cn(frame, 'h-80 w-full')} />
        <p className="text-xs text-muted-foreground">{t('content.iframeNote')}</p>
      </div>
    )
  }
  return (
    <div className={cn(frame, 'max-h-[28rem] overflow-y-auto px-5 py-4')} data-testid="content-preview">
      <MarkdownContent content={text} />
    </div>
  )
}

function PreviewToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  const { t } = useTranslation('settings')
  return (
    <Button type="button" variant="ghost" size="sm" onClick={onToggle} aria-pressed={shown}>
      {shown ? <EyeOff /> : <Eye />}
      {shown ? t('content.hidePreview') : t('content.showPreview')}
    </Button>
  )
}

type ContentValues = Record<ContentKey, string>

function LivePreview({ control, name, kind }: { control: Control<ContentValues>; name: ContentKey; kind: PreviewKind }) {
  const content = useWatch({ control, name })
  return <Preview kind={kind} content={content ?? ''} />
}

const CONTENT: { key: ContentKey; id: string; kind: PreviewKind; rows: number }[] = [
  { key: 'Notice', id: 'notice', kind: 'markdown', rows: 5 },
  { key: 'HomePageContent', id: 'home', kind: 'page', rows: 8 },
  { key: 'About', id: 'about', kind: 'page', rows: 8 },
  { key: 'Footer', id: 'footer', kind: 'footer', rows: 3 },
]

export function ContentSection({ options, field }: { options: OptionMap; field: ContentKey }) {
  const { t } = useTranslation('settings')
  const item = CONTENT.find((c) => c.key === field)!
  const [preview, setPreview] = useState(false)
  const { schema, codec } = useMemo(() => {
    // One text per form; typed as the union of the four so the fields below stay generic.
    const s = z.object({ [item.key]: z.string().max(200_000, 'settings:validation.tooLong') }) as unknown as z.ZodObject<Record<ContentKey, z.ZodString>>
    return { schema: s, codec: plainCodec(s) }
  }, [item.key])
  return (
    <SettingsSection
      id={item.id}
      title={t(`sections.${item.id}.title`)}
      description={t(`sections.${item.id}.description`)}
      options={options}
      schema={schema}
      {...codec}
      footnote={item.key === 'Footer' ? t('content.copyright') : undefined}
    >
      {(form) => (
        <SettingsTextareaField
          control={form.control}
          name={item.key}
          label={t(`fields.${item.key}.label`)}
          description={t(`fields.${item.key}.help`)}
          rows={item.rows}
          mono
          labelExtra={<PreviewToggle shown={preview} onToggle={() => setPreview((p) => !p)} />}
          after={preview && <LivePreview control={form.control} name={item.key} kind={item.kind} />}
        />
      )}
    </SettingsSection>
  )
}

const brandSchema = z.object({ SystemName: requiredText.max(64, 'settings:validation.tooLong'), Logo: urlText })
const brandCodec = plainCodec(brandSchema)

function LogoPreview({ control }: { control: Control<z.infer<typeof brandSchema>> }) {
  const { t } = useTranslation('settings')
  const [logo, name] = useWatch({ control, name: ['Logo', 'SystemName'] })
  const [failed, setFailed] = useState<string | null>(null)
  const valid = urlText.safeParse(logo).success && logo.trim() !== ''
  return (
    <div className="flex items-center gap-3 rounded-lg border border-dashed bg-muted/40 p-3" data-testid="logo-preview">
      <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-background">
        {valid && failed !== logo ? (
          <img src={logo} alt="" className="size-8 object-contain" onError={() => setFailed(logo)} />
        ) : valid ? (
          <ImageOff className="size-5 text-destructive" />
        ) : (
          <ImageIcon className="size-5 text-muted-foreground" />
        )}
      </span>
      <div className="min-w-0">
        <p className="truncate font-semibold">{name.trim() || '—'}</p>
        <p className="truncate text-xs text-muted-foreground">{valid && failed === logo ? t('content.logoFailed') : valid ? t('content.logoCustom') : t('content.logoDefault')}</p>
      </div>
    </div>
  )
}

export function BrandSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  return (
    <SettingsSection id="brand" title={t('sections.brand.title')} description={t('sections.brand.description')} options={options} schema={brandSchema} {...brandCodec}>
      {(form) => (
        <>
          <FieldGrid className="xl:grid-cols-2">
            <TextField control={form.control} name="SystemName" label={t('fields.SystemName.label')} description={t('fields.SystemName.help')} />
            <TextField control={form.control} name="Logo" label={t('fields.Logo.label')} description={t('fields.Logo.help')} placeholder="https://…/logo.png" inputMode="url" />
          </FieldGrid>
          <LogoPreview control={form.control} />
        </>
      )}
    </SettingsSection>
  )
}
