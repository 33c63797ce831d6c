/**
 * The top-up page's schemas: the redemption-code form (a code is required; the server checks it and
 * that it is unused) and the `?trade_no=` a payment gateway sends the payer back with (the top-up
 * and plans pages show its order's outcome; anything malformed is dropped).
 */
import { z } from 'zod'

export const redeemSchema = z.object({
  key: z.string().trim().min(1, 'topup:redeem.required').max(64, 'topup:redeem.tooLong'),
})
export type RedeemValues = z.infer<typeof redeemSchema>

/** The search of a page a gateway returns the payer to: the order's trade number, when well formed. */
export const paymentReturnSearch = z.object({
  trade_no: z
    .string()
    .regex(/^\w{1,64}$/)
    .optional()
    .catch(undefined),
})
