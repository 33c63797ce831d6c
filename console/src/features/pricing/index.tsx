/**
 * /panel/pricing (admin): model prices in a single view (one row per
 * model) or a merged view (models sharing one price), the unpriced-models warning, new / refresh /
 * check updates, and the user groups whose ratio multiplies every price.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CloudDownload, Plus, RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { pricesQueryOptions, pricingKeys } from './api'
import { PricingDialogs } from './components/pricing-dialogs'
import { usePricingSearch } from './components/pricing-filters'
import { PricingMergedTable } from './components/pricing-merged-table'
import { PricingProvider, usePricing } from './components/pricing-provider'
import { PricingSingleTable } from './components/pricing-single-table'
import { PricingUnpricedAlert } from './components/pricing-unpriced-alert'
import { GroupsTab } from './components/groups-tab'

type Tab = 'single' | 'merged' | 'groups'

function PriceActions() {
  const { t } = useTranslation('pricing')
  const { open } = usePricing()
  const queryClient = useQueryClient()
  const prices = useQuery(pricesQueryOptions)
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: pricingKeys.prices }), queryClient.invalidateQueries({ queryKey: pricingKeys.catalogue })])
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" onClick={refresh} disabled={prices.isFetching} data-testid="pricing-refresh">
        <RefreshCw className={prices.isFetching ? 'animate-spin' : undefined} />
        {t('actions.refresh')}
      </Button>
      <Button variant="outline" onClick={() => open({ kind: 'updates' })} data-testid="pricing-updates">
        <CloudDownload />
        {t('actions.checkUpdates')}
      </Button>
      <Button onClick={() => open({ kind: 'price' })} data-testid="pricing-new">
        <Plus />
        {t('actions.new')}
      </Button>
    </div>
  )
}

function PricingPage() {
  const { t } = useTranslation('pricing')
  const { search, setSearch } = usePricingSearch()
  const { data: prices, isLoading } = useQuery(pricesQueryOptions)
  const tab: Tab = search.tab ?? 'single'
  // Each tab starts on its first page, unfiltered and unsorted.
  const switchTab = (next: string) =>
    setSearch({ tab: next === 'single' ? undefined : (next as Tab), p: undefined, order: undefined, keyword: undefined, channel_type: undefined, type: undefined })
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={tab !== 'groups' && <PriceActions />} />
      {tab !== 'groups' && <PricingUnpricedAlert />}
      <Tabs value={tab} onValueChange={switchTab}>
        <TabsList>
          <TabsTrigger value="single">{t('tabs.single')}</TabsTrigger>
          <TabsTrigger value="merged">{t('tabs.merged')}</TabsTrigger>
          <TabsTrigger value="groups">{t('tabs.groups')}</TabsTrigger>
        </TabsList>
        <TabsContent value="single">
          <PricingSingleTable prices={prices} loading={isLoading} />
        </TabsContent>
        <TabsContent value="merged">
          <PricingMergedTable prices={prices} loading={isLoading} />
        </TabsContent>
        <TabsContent value="groups">
          <GroupsTab />
        </TabsContent>
      </Tabs>
      <PricingDialogs prices={prices ?? []} />
    </>
  )
}

export function Pricing() {
  return (
    <PricingProvider>
      <PricingPage />
    </PricingProvider>
  )
}
