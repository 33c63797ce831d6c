/**
 * Explains why the playground cannot answer with the chosen model: it has no price, and the
 * gateway refuses unpriced models instead of billing them silently. Administrators get a link to
 * the pricing editor (whose warning offers the missing prices); others are told whom to ask.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ArrowRight, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { availableModelsQueryOptions } from '@/features/model-prices/api'

/** `models`: what the chosen key may call; `model`: the one picked. */
export function UnpricedModelAlert({ models, model }: { models: string[] | undefined; model: string }) {
  const { t } = useTranslation('playground')
  const admin = isAdmin(useAuthUser())
  const { data } = useQuery({ ...availableModelsQueryOptions, enabled: Boolean(models?.length && model) })
  if (!data || !models?.length || !model) return null
  const unpriced = new Set(data.models.filter((m) => !m.priced).map((m) => m.model))
  if (!unpriced.has(model)) return null
  const priced = models.filter((m) => !unpriced.has(m))
  return (
    <Alert variant="warning" className="mb-4" data-testid="playground-unpriced">
      <TriangleAlert />
      <AlertTitle>{t('unpriced.title', { model })}</AlertTitle>
      <AlertDescription>
        <p>{priced.length === 0 ? t('unpriced.none') : t('unpriced.other', { models: priced.slice(0, 5).join(', ') })}</p>
        {admin ? (
          <Button asChild variant="outline" size="sm" className="mt-2 h-auto min-h-8 bg-background py-1.5 text-left whitespace-normal" data-testid="playground-pricing-link">
            <Link to="/panel/pricing">
              {t('unpriced.setPrice', { model })}
              <ArrowRight />
            </Link>
          </Button>
        ) : (
          <p>{t('unpriced.askAdmin')}</p>
        )}
      </AlertDescription>
    </Alert>
  )
}
