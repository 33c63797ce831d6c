/**
 * Form schemas of the users page (username ≥ 3, password ≥ 8, group required, quota ≥ 0; the
 * ceilings on the limits and budget of the user's tokens, lib/limits-form.ts).
 * Quota fields hold what the admin types — dollars when the site shows currency, raw units
 * otherwise — and are converted with lib/format on submit. Messages are i18n keys.
 */
import { z } from 'zod'
import { emailField, passwordField, usernameField } from '@/features/auth/schema'
import { checkLimits, limitsFormShape } from '@/lib/limits-form'

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))

/** A non-negative amount; whole units unless amounts are entered in currency. */
export function quotaAmount(currency: boolean) {
  return z
    .string()
    .trim()
    .min(1, 'validation.required')
    .refine(isNumber, 'users:validation.number')
    .refine((v) => Number(v) >= 0, 'users:validation.quotaMin')
    .refine((v) => currency || Number.isInteger(Number(v)), 'users:validation.integer')
}

export function userFormSchema(opts: { edit: boolean; currency: boolean }) {
  return z
    .object({
      username: usernameField,
      display_name: z.string().trim().max(40, 'validation.displayNameMax'),
      email: z.string().trim().pipe(emailField),
      // Editing: empty keeps the current password.
      password: opts.edit ? z.union([z.literal(''), passwordField]) : passwordField,
      group: z.string().trim().min(1, 'users:validation.groupRequired'),
      quota: quotaAmount(opts.currency),
      // The ceilings on the limits and budget of the user's tokens (sent when editing).
      ...limitsFormShape,
    })
    .superRefine((v, ctx) => checkLimits(v, ctx, opts.currency))
}
export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>

export function quotaChangeSchema(currency: boolean) {
  return z.object({
    mode: z.enum(['add', 'subtract']),
    amount: quotaAmount(currency).refine((v) => Number(v) > 0, 'users:validation.amountPositive'),
    remark: z.string().trim().max(200, 'users:validation.remarkMax'),
  })
}
export type QuotaChangeValues = z.infer<ReturnType<typeof quotaChangeSchema>>
