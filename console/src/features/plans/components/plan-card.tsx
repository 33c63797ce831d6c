/**
 * One published plan as a card: name, price and duration, description, then its windows and model
 * items; a priced plan gets a Subscribe button when the page can sell it (`onSubscribe`), disabled
 * once the user holds the plan's per-user limit.
 */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Separator } from '@/components/ui/separator'
import type { Plan } from '../api'
import { formatDuration, formatPrice } from '../format'
import { PlanTermsList } from './plan-terms'

export function PlanCard({ plan, onSubscribe, atLimit = false }: { plan: Plan; onSubscribe?: (plan: Plan) => void; atLimit?: boolean }) {
  const { t } = useTranslation('plans')
  return (
    <Card className="gap-4" data-testid="plan-card">
      <CardHeader>
        <CardTitle className="flex items-start justify-between gap-2">
          <span className="min-w-0 break-words">{plan.name}</span>
          {plan.max_per_user > 0 && (
            <Badge variant="outline" className="shrink-0">
              {t('card.limit', { count: plan.max_per_user })}
            </Badge>
          )}
        </CardTitle>
        <div className="flex items-baseline gap-2">
          <span className="text-3xl font-bold tabular-nums" data-testid="plan-price">
            {plan.price > 0 ? formatPrice(plan.price) : t('card.free')}
          </span>
          <span className="text-sm text-muted-foreground">/ {formatDuration(t, plan.duration_unit, plan.duration_count)}</span>
        </div>
        {plan.description && <CardDescription className="whitespace-pre-line">{plan.description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        <Separator />
        <PlanTermsList terms={plan} />
      </CardContent>
      {onSubscribe && plan.price > 0 && (
        <CardFooter className="flex-col items-stretch gap-1">
          <Button disabled={atLimit} onClick={() => onSubscribe(plan)} data-testid="plan-subscribe">
            {t('subscribe.button')}
          </Button>
          {atLimit && <p className="text-xs text-muted-foreground">{t('subscribe.atLimit')}</p>}
        </CardFooter>
      )}
    </Card>
  )
}
