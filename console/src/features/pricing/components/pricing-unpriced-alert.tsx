/**
 * Warning above the price lists: models that channels serve but no price (exact or wildcard)
 * covers, from GET /api/prices/model_list. The relay refuses them until they are priced; each name
 * opens the new-price dialog prefilled with it.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Plus, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { catalogueQueryOptions } from '../api'
import { usePricing } from './pricing-provider'

const SHOWN = 24

export function PricingUnpricedAlert() {
  const { t } = useTranslation('pricing')
  const { data } = useQuery(catalogueQueryOptions)
  const { open } = usePricing()
  const [all, setAll] = useState(false)
  const unpriced = data?.unpriced ?? []
  if (unpriced.length === 0) return null
  const shown = all ? unpriced : unpriced.slice(0, SHOWN)
  return (
    <Alert variant="warning" className="mb-4" data-testid="unpriced-alert">
      <TriangleAlert />
      <AlertTitle>{t('unpriced.title', { count: unpriced.length })}</AlertTitle>
      <AlertDescription>
        <p>{t('unpriced.description')}</p>
        <div className="mt-1 flex flex-wrap gap-1.5">
          {shown.map((m) => (
            <Button
              key={m}
              variant="outline"
              size="sm"
              className="h-7 gap-1 bg-background px-2 font-mono text-xs font-normal"
              onClick={() => open({ kind: 'price', model: m })}
              title={t('unpriced.add', { model: m })}
            >
              <Plus className="size-3" />
              {m}
            </Button>
          ))}
          {unpriced.length > SHOWN && (
            <Button variant="link" size="sm" className="h-7 px-1" onClick={() => setAll((v) => !v)}>
              {all ? t('unpriced.less') : t('unpriced.more', { count: unpriced.length - SHOWN })}
            </Button>
          )}
        </div>
      </AlertDescription>
    </Alert>
  )
}
