/**
 * The top-up price rules, the very file the server prices orders with (shared/contract/payment-amount.ts),
 * so the preview on /panel/topup always shows what the gateway will charge.
 */
export * from '@contract/payment-amount'

/** Cents as money for display: "¥689.85" / "$94.50". */
export function formatMoney(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const symbol = currency === 'CNY' ? '¥' : currency === 'USD' ? '$' : ''
  return `${sign}${symbol}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}${symbol ? '' : ` ${currency}`}`
}

/** A decimal amount from the API (689.85) as money for display. */
export const formatDecimal = (value: number, currency: string) => formatMoney(Math.round(value * 100), currency)
