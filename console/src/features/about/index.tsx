/** `/about`: the configured about content, or a short default text. */
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { SiteContent } from '@/components/site-content'
import { aboutQueryOptions, useSiteInfo } from '@/features/site/api'

export function About() {
  const { t } = useTranslation('home')
  const { system_name } = useSiteInfo()
  const empty = (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 md:py-16">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">{t('about.title', { name: system_name })}</CardTitle>
          <CardDescription>{t('about.subtitle')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 leading-relaxed text-muted-foreground">
          <p>{t('about.body')}</p>
          <p>{t('about.adminHint')}</p>
        </CardContent>
      </Card>
    </div>
  )
  return <SiteContent query={aboutQueryOptions} errorMessage={t('about.loadFailed')} empty={empty} title={t('about.title', { name: system_name })} />
}
