/**
 * /panel/payment (admin): the order list and the gateway list (with the gateway
 * edit sheet) as two tabs; the tab and the order filters live in the URL.
 */
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { GatewaysPanel } from './components/gateways-panel'
import { OrdersPanel } from './components/orders-panel'

const route = getRouteApi('/panel/payment')

export function Payments() {
  const { t } = useTranslation('payments')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const tab = search.tab ?? 'orders'
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Tabs value={tab} onValueChange={(v) => void navigate({ search: (prev) => ({ ...prev, tab: v === 'orders' ? undefined : (v as 'gateways') }) })}>
        <TabsList>
          <TabsTrigger value="orders" data-testid="tab-orders">
            {t('tabs.orders')}
          </TabsTrigger>
          <TabsTrigger value="gateways" data-testid="tab-gateways">
            {t('tabs.gateways')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="orders">
          <OrdersPanel />
        </TabsContent>
        <TabsContent value="gateways" className="pt-3">
          <GatewaysPanel />
        </TabsContent>
      </Tabs>
    </>
  )
}
