import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { STORAGE_KEYS } from '@/lib/storage'
import { planBodySchema, type Plan } from '@contract/plans'
import { bodyOf, extendFormSchema, formDefaults, grantFormSchema, planFormSchema, toBody, type PlanFormValues } from './schema'

/** The site shows quota as dollars at 500,000 units per dollar. */
function currencySite() {
  const store = new Map<string, string>([
    [STORAGE_KEYS.displayInCurrency, 'true'],
    [STORAGE_KEYS.quotaPerUnit, '500000'],
  ])
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: () => undefined, removeItem: () => undefined })
}

const filled = (patch: Partial<PlanFormValues> = {}): PlanFormValues => ({
  ...formDefaults(),
  name: ' Pro ',
  price: '9.9',
  windows: [
    { period: 'day', kind: 'requests', amount: '100' },
    { period: 'month', kind: 'quota', amount: '20' },
  ],
  models: [
    { pattern: 'gpt-4o*', kind: 'quota', amount: '0.5' },
    { pattern: '*', kind: 'excluded', amount: '' },
  ],
  ...patch,
})

const messages = (v: PlanFormValues) => {
  const r = planFormSchema.safeParse(v)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('plan form', () => {
  beforeEach(currencySite)
  afterEach(() => vi.unstubAllGlobals())

  it('builds the body the shared schema accepts: dollars become quota units, requests stay counts', () => {
    expect(messages(filled())).toEqual([])
    const body = toBody(filled())
    expect(body).toMatchObject({
      name: 'Pro',
      price: 9.9,
      duration_unit: 'month',
      duration_count: 1,
      windows: [
        { period: 'day', requests: 100 },
        { period: 'month', quota: 10_000_000 },
      ],
      models: [
        { pattern: 'gpt-4o*', quota: 250_000 },
        { pattern: '*', excluded: true },
      ],
      allow_balance_fallback: true,
      published: false,
    })
    expect(planBodySchema.parse(body)).toEqual(body)
  })

  it('reads a stored plan back into the same form, and bodyOf drops only the stored fields', () => {
    const plan: Plan = { ...toBody(filled()), id: 7, created_at: 1, updated_at: 2 }
    expect(toBody(formDefaults(plan))).toEqual(toBody(filled()))
    expect(bodyOf(plan)).toEqual(toBody(filled()))
  })

  it('carries the channel tags to the body and back, and refuses more than the server takes', () => {
    const tagged = filled({ channel_tags: ['premium', 'fast'] })
    expect(toBody(tagged).channel_tags).toEqual(['premium', 'fast'])
    expect(formDefaults({ ...toBody(tagged), id: 1, created_at: 1, updated_at: 1 }).channel_tags).toEqual(['premium', 'fast'])
    expect(messages(filled({ channel_tags: Array.from({ length: 17 }, (_, i) => `t${i}`) }))).toEqual(['channel_tags: plans:validation.channelTagsMax'])
  })

  it('shows per-field messages under the inputs', () => {
    const bad = filled({
      name: '',
      price: '-1',
      duration_count: '0',
      windows: [{ period: 'day', kind: 'requests', amount: '0' }],
      models: [{ pattern: 'x', kind: 'requests', amount: '' }],
    })
    expect(messages(bad)).toEqual([
      'name: validation.required',
      'price: plans:validation.price',
      'duration_count: plans:validation.wholePositive',
      'windows.0.amount: plans:validation.positive',
      'models.0.amount: plans:validation.positive',
    ])
    // An excluded model needs no amount; an unlimited plan ignores the count.
    expect(messages(filled({ models: [{ pattern: 'o1*', kind: 'excluded', amount: '' }] }))).toEqual([])
    expect(toBody(filled({ duration_unit: 'unlimited', duration_count: '5' })).duration_count).toBe(1)
  })

  it('asks for whole request counts, and puts the shared schema’s refusals under the amount they concern', () => {
    expect(messages(filled({ windows: [{ period: 'hour', kind: 'requests', amount: '1.5' }] }))).toEqual(['windows.0.amount: plans:validation.wholePositive'])
    // $0.0000001 is a tenth of a quota unit: the shared schema refuses the 0 it rounds to.
    expect(messages(filled({ models: [{ pattern: 'a*', kind: 'quota', amount: '0.0000001' }] }))).toEqual(['models.0.amount: plans:validation.allowance'])
  })
})

describe('grant and extend forms', () => {
  it('take a positive user id and a plan, and 1–1000 of a unit', () => {
    expect(grantFormSchema.safeParse({ user_id: '12', plan_id: '3' }).success).toBe(true)
    expect(grantFormSchema.safeParse({ user_id: '0', plan_id: '3' }).success).toBe(false)
    expect(grantFormSchema.safeParse({ user_id: '12', plan_id: '' }).success).toBe(false)
    expect(extendFormSchema.safeParse({ duration_unit: 'week', duration_count: '2' }).success).toBe(true)
    expect(extendFormSchema.safeParse({ duration_unit: 'week', duration_count: '1001' }).success).toBe(false)
    expect(extendFormSchema.safeParse({ duration_unit: 'unlimited', duration_count: '1' }).success).toBe(false)
  })
})
