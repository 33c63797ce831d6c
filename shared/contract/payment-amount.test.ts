/** The top-up amount formula as a table: the worked example, fee rules, FX and edges. */
import { describe, expect, it } from 'vitest'
import { amountProblem, centsToDecimal, computeOrderAmount, decimalToCents, discountFor, parseDiscounts, priceOrder, type OrderAmountInput } from './payment-amount'

const base: OrderAmountInput = { amount: 100, discounts: {}, percentFee: 0, fixedFeeCents: 0, currency: 'USD', usdRate: 7.3, quotaPerUnit: 500_000 }

describe('computeOrderAmount', () => {
  const cases: [string, Partial<OrderAmountInput>, { list: number; pay: number; fee: number; discount: number; quota: number }][] = [
    // The reference's worked example: discounted 90, fee 4.5, list 105 → CNY list 766.50, pay 689.85, discount 76.65.
    [
      'worked example (CNY, 0.9 discount, 5 % fee)',
      { discounts: { '100': 0.9 }, percentFee: 0.05, currency: 'CNY' },
      { list: 76_650, pay: 68_985, fee: 450, discount: 7_665, quota: 50_000_000 },
    ],
    ['same in USD', { discounts: { '100': 0.9 }, percentFee: 0.05 }, { list: 10_500, pay: 9_450, fee: 450, discount: 1_050, quota: 50_000_000 }],
    ['no discount, no fee', {}, { list: 10_000, pay: 10_000, fee: 0, discount: 0, quota: 50_000_000 }],
    ['discount applies only to its exact amount', { amount: 99, discounts: { '100': 0.9 } }, { list: 9_900, pay: 9_900, fee: 0, discount: 0, quota: 49_500_000 }],
    ['fixed fee: not in the list price, so the discount goes negative', { amount: 10, fixedFeeCents: 30 }, { list: 1_000, pay: 1_030, fee: 30, discount: -30, quota: 5_000_000 }],
    ['percent fee wins over a fixed fee', { amount: 10, fixedFeeCents: 99, percentFee: 0.1 }, { list: 1_100, pay: 1_100, fee: 100, discount: 0, quota: 5_000_000 }],
    [
      'fixed fee with a discount, CNY',
      { amount: 10, discounts: { '10': 0.95 }, fixedFeeCents: 50, currency: 'CNY', usdRate: 7 },
      { list: 7_000, pay: 7_000, fee: 50, discount: 0, quota: 5_000_000 },
    ],
    ['minimum amount, CNY rate with cents', { amount: 1, currency: 'CNY', usdRate: 7.31 }, { list: 731, pay: 731, fee: 0, discount: 0, quota: 500_000 }],
    ['half a cent rounds up', { amount: 1, percentFee: 0.005 }, { list: 101, pay: 101, fee: 1, discount: 0, quota: 500_000 }],
    ['0.6 % fee is representable', { amount: 1000, percentFee: 0.006 }, { list: 100_600, pay: 100_600, fee: 600, discount: 0, quota: 500_000_000 }],
    [
      'maximum amount stays exact',
      { amount: 1_000_000, discounts: { '1000000': 0.85 }, percentFee: 0.029, currency: 'CNY', usdRate: 7.1234 },
      { list: 732_997_860, pay: 623_048_181, fee: 2_465_000, discount: 109_949_679, quota: 500_000_000_000 },
    ],
    ['a nonsense multiplier is ignored', { discounts: { '100': -1 } }, { list: 10_000, pay: 10_000, fee: 0, discount: 0, quota: 50_000_000 }],
  ]
  for (const [name, input, want] of cases) {
    it(name, () => {
      const r = computeOrderAmount({ ...base, ...input })
      expect({ list: r.listCents, pay: r.payCents, fee: r.feeCents, discount: r.discountCents, quota: r.quota }).toEqual(want)
      for (const v of [r.listCents, r.payCents, r.feeCents, r.discountCents, r.quota]) expect(Number.isSafeInteger(v)).toBe(true)
    })
  }

  it('states the fee in the gateway currency too, adding up with the converted price to what is paid', () => {
    // Worked example: discounted 90 USD → 657.00 CNY; paid 689.85 CNY, so the fee is 32.85 CNY (4.50 USD).
    const cny = computeOrderAmount({ ...base, discounts: { '100': 0.9 }, percentFee: 0.05, currency: 'CNY' })
    expect(cny.payFeeCents).toBe(3_285)
    expect(computeOrderAmount({ ...base, amount: 10, fixedFeeCents: 30 }).payFeeCents).toBe(30)
    expect(computeOrderAmount({ ...base, currency: 'CNY' }).payFeeCents).toBe(0)
  })

  it('quota ignores discount and fee', () => {
    expect(computeOrderAmount({ ...base, amount: 7, discounts: { '7': 0.5 }, percentFee: 0.2, quotaPerUnit: 1000 }).quota).toBe(7000)
  })
})

describe('amount rules', () => {
  it('refuses non-integers, zero, below the minimum and above 1,000,000', () => {
    expect(amountProblem(1.5, 1)).toBe('not_integer')
    expect(amountProblem('10', 1)).toBe('not_integer')
    expect(amountProblem(0, 1)).toBe('not_integer')
    expect(amountProblem(-5, 1)).toBe('not_integer')
    expect(amountProblem(Number.NaN, 1)).toBe('not_integer')
    expect(amountProblem(4, 5)).toBe('below_minimum')
    expect(amountProblem(5, 5)).toBeUndefined()
    expect(amountProblem(1_000_000, 1)).toBeUndefined()
    expect(amountProblem(1_000_001, 1)).toBe('above_maximum')
  })

  it('reads the discount map leniently and only by exact key', () => {
    expect(parseDiscounts('{"10":0.95,"100":0.9,"x":"y","5":0}')).toEqual({ '10': 0.95, '100': 0.9 })
    expect(parseDiscounts('not json')).toEqual({})
    expect(parseDiscounts('[1,2]')).toEqual({})
    expect(discountFor(100, { '100': 0.9 })).toBe(0.9)
    expect(discountFor(100, { '100.0': 0.9 })).toBe(1)
    expect(discountFor(100, JSON.parse('{"__proto__": 0.5}'))).toBe(1)
  })

  it('converts cents and decimals both ways', () => {
    expect(centsToDecimal(68_985)).toBe('689.85')
    expect(centsToDecimal(5)).toBe('0.05')
    expect(centsToDecimal(-30)).toBe('-0.30')
    expect(decimalToCents('689.85')).toBe(68_985)
    expect(decimalToCents('1')).toBe(100)
    expect(decimalToCents('0.5')).toBe(50)
    expect(decimalToCents('1.005')).toBeUndefined()
    expect(decimalToCents('-1.00')).toBeUndefined()
    expect(decimalToCents('1e3')).toBeUndefined()
  })

  it('prices a cent amount (a plan) with the fee and the conversion, and a top-up is the same price of its dollars', () => {
    // $9.99 + 5 % (0.4995 → 0.50) = $10.49 → ¥76.577 → ¥76.58.
    expect(priceOrder({ baseCents: 999, multiplier: 1, percentFee: 0.05, fixedFeeCents: 0, currency: 'CNY', usdRate: 7.3 })).toMatchObject({ feeCents: 50, payCents: 7658 })
    expect(priceOrder({ baseCents: 1250, multiplier: 1, percentFee: 0, fixedFeeCents: 30, currency: 'USD', usdRate: 7.3 })).toMatchObject({ payCents: 1280, discountCents: -30 })
    const topup = computeOrderAmount({ ...base, discounts: { '100': 0.9 }, percentFee: 0.05, currency: 'CNY' })
    const { amount, multiplier, quota, ...price } = topup
    expect(priceOrder({ baseCents: 10_000, multiplier: 0.9, percentFee: 0.05, fixedFeeCents: 0, currency: 'CNY', usdRate: 7.3 })).toEqual(price)
  })
})
