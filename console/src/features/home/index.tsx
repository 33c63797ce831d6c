/** `/`: the configured home content, or the default landing section describing the gateway. */
import { useTranslation } from 'react-i18next'
import { SiteContent } from '@/components/site-content'
import { homeContentQueryOptions } from '@/features/site/api'
import { Landing } from './landing'

export function Home() {
  const { t } = useTranslation('home')
  return <SiteContent query={homeContentQueryOptions} errorMessage={t('loadFailed')} empty={<Landing />} title={t('title')} />
}
