import { describe, expect, it } from 'vitest'
import { joinMoney, planFigureRows } from './plan-figures'

describe('plan figure rows', () => {
  it('merges sales per currency and active subscriptions into one row per plan, busiest first', () => {
    const rows = planFigureRows({
      sales: [
        { plan_id: 1, plan_name: 'Alpha', currency: 'CNY', orders: 1, revenue_cents: 7300 },
        { plan_id: 1, plan_name: 'Alpha', currency: 'USD', orders: 2, revenue_cents: 2000 },
        { plan_id: 2, plan_name: 'Beta', currency: 'USD', orders: 1, revenue_cents: 505 },
      ],
      sales_totals: [],
      active: [
        { plan_id: 3, plan_name: 'Gamma', count: 4 },
        { plan_id: 1, plan_name: 'Alpha', count: 3 },
      ],
      active_total: 7,
    })
    expect(rows).toEqual([
      { plan_id: 1, plan_name: 'Alpha', orders: 3, revenue: '¥73.00 · $20.00', active: 3 },
      { plan_id: 2, plan_name: 'Beta', orders: 1, revenue: '$5.05', active: 0 },
      { plan_id: 3, plan_name: 'Gamma', orders: 0, revenue: '', active: 4 },
    ])
    expect(joinMoney([])).toBe('')
  })
})
