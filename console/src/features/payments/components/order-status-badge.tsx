/** An order's status as a coloured badge (pending, success, failed, closed, refunded). */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import type { OrderStatus } from '../api'

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('payments')
  const label = t(`status.${status}`, { defaultValue: status })
  if (status === 'success') return <Badge variant="success">{label}</Badge>
  if (status === 'pending') return <Badge className="border-transparent bg-warning/15 text-warning">{label}</Badge>
  if (status === 'failed') return <Badge className="border-transparent bg-destructive/12 text-destructive">{label}</Badge>
  if (status === 'refunded') return <Badge variant="outline">{label}</Badge>
  return <Badge variant="secondary">{label}</Badge>
}
