/** The price form's long-context tier and fee: all three tier fields or none, whole numbers where needed, and the body they become. */
import { describe, expect, it } from 'vitest'
import { NO_TIER, priceFormSchema, tierToValues, toPriceFields } from './schema'

const form = { model: 'tiered', type: 'tokens' as const, channel_type: '25', input: '0.625', output: '5', locked: false, extra_ratios: [], ...NO_TIER }
const schema = priceFormSchema(() => false)
const errors = (values: object) => {
  const res = schema.safeParse({ ...form, ...values })
  return res.success ? {} : Object.fromEntries(res.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('price form tier and fee', () => {
  it('sends no tier and a zero fee when the fields are empty', () => {
    expect(errors({})).toEqual({})
    expect(toPriceFields(schema.parse(form))).toMatchObject({ tier: null, fee: 0 })
  })

  it('sends the tier and fee when filled in, and reads them back', () => {
    const values = schema.parse({ ...form, tier_threshold: '200000', tier_input: '1.25', tier_output: '7.5', fee: '1000' })
    const body = toPriceFields(values)
    expect(body).toMatchObject({ tier: { threshold_tokens: 200_000, input: 1.25, output: 7.5 }, fee: 1000 })
    expect(tierToValues({ tier: body.tier ?? null, fee: body.fee ?? 0 })).toEqual({ tier_threshold: '200000', tier_input: '1.25', tier_output: '7.5', fee: '1000' })
  })

  it('refuses a half-filled tier, a fractional threshold or fee, and negatives', () => {
    expect(errors({ tier_threshold: '200000' })).toEqual({ tier_input: 'pricing:validation.tierIncomplete', tier_output: 'pricing:validation.tierIncomplete' })
    expect(errors({ tier_threshold: '1.5', tier_input: '1', tier_output: '1' })).toEqual({ tier_threshold: 'pricing:validation.integer' })
    expect(errors({ tier_threshold: '0', tier_input: '1', tier_output: '1' })).toEqual({ tier_threshold: 'pricing:validation.thresholdMin' })
    expect(errors({ tier_threshold: '10', tier_input: '-1', tier_output: '1' })).toEqual({ tier_input: 'pricing:validation.min0' })
    expect(errors({ fee: '2.5' })).toEqual({ fee: 'pricing:validation.integer' })
  })
})
