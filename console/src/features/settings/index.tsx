/**
 * /panel/setting (root only): every site option, grouped in
 * the operation / system / other tabs (the tab lives in the URL search `tab`). The option API is
 * root-only, so other administrators get an explanation instead of the forms.
 */
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { RefreshCw, ShieldAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { useAuthUser } from '@/stores/auth-store'
import { optionsQueryOptions } from './api'
import { SETTINGS_TABS, SettingsTabBody, sectionCount, type SettingsTab } from './components/settings-tabs'
import { ROLE } from '@contract/enums'

const route = getRouteApi('/panel/setting')

export function Settings() {
  const { t } = useTranslation('settings')
  const user = useAuthUser()
  // The option API answers the super administrator only.
  const isRoot = (user?.role ?? 0) >= ROLE.ROOT
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {isRoot ? (
        <SettingsTabs />
      ) : (
        <Alert variant="warning" className="max-w-2xl" data-testid="settings-root-only">
          <ShieldAlert />
          <AlertTitle>{t('rootOnly.title')}</AlertTitle>
          <AlertDescription>{t('rootOnly.description')}</AlertDescription>
        </Alert>
      )}
    </>
  )
}

function SettingsTabs() {
  const { t } = useTranslation('settings')
  const { tab = 'operation' } = route.useSearch()
  const navigate = route.useNavigate()
  const query = useQuery(optionsQueryOptions)

  return (
    <Tabs value={tab} onValueChange={(value) => void navigate({ search: { tab: value as SettingsTab }, replace: true })} className="gap-6">
      <TabsList className="w-full sm:w-fit" data-testid="settings-tabs">
        {SETTINGS_TABS.map((id) => (
          <TabsTrigger key={id} value={id} className="px-4">
            {t(`tabs.${id}`)}
          </TabsTrigger>
        ))}
      </TabsList>
      {SETTINGS_TABS.map((id) => (
        // Every tab stays mounted so switching tabs keeps what was typed but not saved yet.
        <TabsContent key={id} value={id} forceMount className="data-[state=inactive]:hidden">
          {query.data ? (
            <SettingsTabBody tab={id} options={query.data} />
          ) : query.isError ? (
            <Alert variant="destructive" className="max-w-2xl">
              <AlertTitle>{t('loadFailed')}</AlertTitle>
              <AlertDescription>
                <Button variant="outline" size="sm" className="mt-2" onClick={() => void query.refetch()}>
                  <RefreshCw />
                  {t('retry')}
                </Button>
              </AlertDescription>
            </Alert>
          ) : (
            <div className="grid gap-6 lg:grid-cols-[190px_minmax(0,1fr)]" aria-busy="true">
              <div className="hidden gap-2 lg:grid lg:content-start">
                {Array.from({ length: sectionCount(id) }, (_, i) => (
                  <Skeleton key={i} className="h-6 w-32" />
                ))}
              </div>
              <div className="grid gap-6">
                <Skeleton className="h-72 w-full rounded-xl" />
                <Skeleton className="h-48 w-full rounded-xl" />
              </div>
            </div>
          )}
        </TabsContent>
      ))}
    </Tabs>
  )
}
