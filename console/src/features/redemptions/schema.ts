/**
 * Form schemas of the redemption page (count ≥ 1 — at most 100 per batch —, quota ≥ 0;
 * name 1–20 characters). The quota is what the admin types: dollars when the site shows currency.
 */
import { z } from 'zod'

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))

export function redemptionFormSchema(opts: { edit: boolean; currency: boolean }) {
  const base = z.object({
    name: z.string().trim().min(1, 'validation.required').max(20, 'redemptions:validation.nameMax'),
    quota: z
      .string()
      .trim()
      .min(1, 'validation.required')
      .refine(isNumber, 'redemptions:validation.number')
      .refine((v) => Number(v) >= 0, 'redemptions:validation.quotaMin')
      .refine((v) => opts.currency || Number.isInteger(Number(v)), 'redemptions:validation.integer'),
    count: z
      .string()
      .trim()
      .refine((v) => opts.edit || (isNumber(v) && Number.isInteger(Number(v))), 'redemptions:validation.integer')
      .refine((v) => opts.edit || (Number(v) >= 1 && Number(v) <= 100), 'redemptions:validation.countRange'),
  })
  return base
}
export type RedemptionFormValues = z.infer<ReturnType<typeof redemptionFormSchema>>
