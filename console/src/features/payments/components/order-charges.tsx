/**
 * An order's discount and fee in the currency paid (the admin order list and the user's history):
 * the amounts a gateway statement is reconciled against. An older order paid in another currency
 * than USD kept only its USD fee; that fee is shown in USD.
 */
import { useTranslation } from 'react-i18next'
import { formatDecimal } from '@/lib/payment-amount'
import type { Order } from '../api'

export function orderFee(o: Pick<Order, 'fee' | 'order_fee' | 'order_currency'>): string {
  return o.order_fee === null ? formatDecimal(o.fee, 'USD') : formatDecimal(o.order_fee, o.order_currency)
}

export function OrderCharges({ order, className }: { order: Order; className?: string }) {
  const { t } = useTranslation('payments')
  return (
    <span className={className} data-testid="order-charges">
      {t('charges.discount', { money: formatDecimal(order.discount, order.order_currency) })} · {t('charges.fee', { money: orderFee(order) })}
    </span>
  )
}
