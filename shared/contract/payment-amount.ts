/**
 * Amount → money → quota for an online top-up (the rule of one-hub's calculateOrderAmount), and
 * the same discount/fee/conversion for a plan's price (priceOrder), shared by the server and the
 * console's price preview so both always agree. Pure, no imports.
 *
 * `amount` is whole USD. The discount multiplier comes from RechargeDiscount by exact amount; a
 * percent fee (on the discounted price) wins over a fixed fee; a CNY gateway converts with
 * PaymentUSDRate; quota = amount × QuotaPerUnit whatever the discount or fee. Every money value is
 * an integer number of cents (fen): the fractions (multiplier, fee rate, exchange rate) are taken
 * to millionths and the arithmetic is exact (BigInt), rounding half up to the cent at each step
 * where one-hub rounds to two decimals.
 */

export const MAX_TOPUP_AMOUNT = 1_000_000
export const PAYMENT_CURRENCIES = ['USD', 'CNY'] as const
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number]

export interface OrderAmountInput {
  /** Whole USD the user asked for. */
  amount: number
  /** RechargeDiscount: amount (as a string) → multiplier. */
  discounts: Record<string, number>
  /** Fraction: 0.05 = 5 %. */
  percentFee: number
  /** USD cents. */
  fixedFeeCents: number
  currency: PaymentCurrency
  /** CNY per USD (PaymentUSDRate). */
  usdRate: number
  quotaPerUnit: number
}

export interface OrderAmount {
  amount: number
  /** The multiplier applied (1 without a discount). */
  multiplier: number
  /** The discounted price in USD cents, before the fee. */
  discountedCents: number
  /** The fee in USD cents. */
  feeCents: number
  /** The fee in cents of `currency`: what the user pays minus the converted discounted price, so the two add up to payCents. */
  payFeeCents: number
  /** Before the discount, in cents of `currency` (includes a percent fee, not a fixed one). */
  listCents: number
  /** What the user pays, in cents of `currency`. */
  payCents: number
  /** listCents − payCents (negative when a fixed fee outweighs no discount). */
  discountCents: number
  currency: PaymentCurrency
  quota: number
}

const MICRO = 1_000_000n

function micro(x: number): bigint {
  return BigInt(Math.round(x * 1_000_000))
}

/** n / d rounded half up (n ≥ 0, d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d)
}

/** The multiplier for `amount` from the RechargeDiscount map: an exact key match, else 1 (also for nonsense values). */
export function discountFor(amount: number, discounts: Record<string, number>): number {
  const d = Object.hasOwn(discounts, String(amount)) ? discounts[String(amount)] : undefined
  return typeof d === 'number' && Number.isFinite(d) && d > 0 ? d : 1
}

/** RechargeDiscount as stored (a JSON string); anything unreadable means no discounts. */
export function parseDiscounts(raw: string | undefined | null): Record<string, number> {
  if (!raw) return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
    const out: Record<string, number> = {}
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = v
    return out
  } catch {
    return {}
  }
}

/** Why an amount cannot be ordered, or undefined when it can. */
export function amountProblem(amount: unknown, minAmount: number): 'not_integer' | 'below_minimum' | 'above_maximum' | undefined {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return 'not_integer'
  if (amount < Math.max(1, minAmount)) return 'below_minimum'
  if (amount > MAX_TOPUP_AMOUNT) return 'above_maximum'
  return undefined
}

export interface OrderPriceInput {
  /** The list price in USD cents, before any discount or fee. */
  baseCents: number
  /** The discount multiplier (1: none). */
  multiplier: number
  /** Fraction: 0.05 = 5 %. */
  percentFee: number
  /** USD cents. */
  fixedFeeCents: number
  currency: PaymentCurrency
  /** CNY per USD (PaymentUSDRate). */
  usdRate: number
}

export type OrderPrice = Omit<OrderAmount, 'amount' | 'multiplier' | 'quota'>

/**
 * What a gateway charges for a USD price: the discount, the gateway's fee and the conversion to its
 * currency. Top-ups (computeOrderAmount) and plan orders (a plan's price, no discount) both use it.
 */
export function priceOrder(input: OrderPriceInput): OrderPrice {
  const base = BigInt(input.baseCents)
  const discounted = roundDiv(base * micro(input.multiplier), MICRO)
  let fee = 0n
  let list = base
  const percent = Number.isFinite(input.percentFee) && input.percentFee > 0 ? micro(input.percentFee) : 0n
  if (percent > 0n) {
    fee = roundDiv(discounted * percent, MICRO)
    list = roundDiv(base * (MICRO + percent), MICRO)
  } else if (Number.isSafeInteger(input.fixedFeeCents) && input.fixedFeeCents > 0) {
    fee = BigInt(input.fixedFeeCents)
  }
  let pay = discounted + fee
  let payDiscounted = discounted
  if (input.currency !== 'USD') {
    const rate = micro(input.usdRate)
    list = roundDiv(list * rate, MICRO)
    pay = roundDiv(pay * rate, MICRO)
    payDiscounted = roundDiv(discounted * rate, MICRO)
  }
  return {
    discountedCents: Number(discounted),
    feeCents: Number(fee),
    payFeeCents: Number(pay - payDiscounted),
    listCents: Number(list),
    payCents: Number(pay),
    discountCents: Number(list - pay),
    currency: input.currency,
  }
}

export function computeOrderAmount(input: OrderAmountInput): OrderAmount {
  const multiplier = discountFor(input.amount, input.discounts)
  const price = priceOrder({
    baseCents: input.amount * 100,
    multiplier,
    percentFee: input.percentFee,
    fixedFeeCents: input.fixedFeeCents,
    currency: input.currency,
    usdRate: input.usdRate,
  })
  return { amount: input.amount, multiplier, ...price, quota: input.amount * input.quotaPerUnit }
}

/** Cents as the decimal the API and the gateways speak ("689.85"). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** A decimal money string ("689.85", "1", "0.5") as cents, or undefined if it is not one. */
export function decimalToCents(text: string): number | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!m) return undefined
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}
