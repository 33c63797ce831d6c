/**
 * /panel/model-routing (root only): the structured editor of the relay's model routing — weighted
 * routes (canary splits, `ModelRoutes`) and cross-model fallbacks (`ModelFallbacks`), each a form
 * saved through the settings API. Power users still have both as raw JSON on the settings page
 * (Operation → Model routing), linked from here.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Braces, RefreshCw, ShieldAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { PageHeader } from '@/components/page-header'
import { isRoot, useAuthUser } from '@/stores/auth-store'
import { optionsQueryOptions } from '@/features/settings/api'
import { FallbacksSection } from './components/fallbacks-editor'
import { RoutesSection } from './components/routes-editor'

export function ModelRouting() {
  const { t } = useTranslation('model-routing')
  const root = isRoot(useAuthUser())
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          root && (
            <Button variant="outline" size="sm" asChild>
              <Link to="/panel/setting" search={{ tab: 'operation' }} hash="routing" data-testid="routing-raw-json">
                <Braces />
                {t('rawJson')}
              </Link>
            </Button>
          )
        }
      />
      {root ? (
        <RoutingForms />
      ) : (
        <Alert variant="warning" className="max-w-2xl" data-testid="routing-root-only">
          <ShieldAlert />
          <AlertTitle>{t('rootOnly.title')}</AlertTitle>
          <AlertDescription>{t('rootOnly.description')}</AlertDescription>
        </Alert>
      )}
    </>
  )
}

function RoutingForms() {
  const { t } = useTranslation('model-routing')
  const query = useQuery(optionsQueryOptions)
  if (query.isError) {
    return (
      <Alert variant="destructive" className="max-w-2xl">
        <AlertTitle>{t('loadFailed')}</AlertTitle>
        <AlertDescription>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void query.refetch()}>
            <RefreshCw />
            {t('retry')}
          </Button>
        </AlertDescription>
      </Alert>
    )
  }
  if (!query.data) {
    return (
      <div className="grid gap-6" aria-busy="true">
        <Skeleton className="h-72 w-full rounded-xl" />
        <Skeleton className="h-48 w-full rounded-xl" />
      </div>
    )
  }
  return (
    <div className="grid max-w-5xl gap-6">
      <RoutesSection options={query.data} />
      <FallbacksSection options={query.data} />
    </div>
  )
}
