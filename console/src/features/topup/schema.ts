/** The redemption-code form: a code is required (the server checks it and that it is unused). */
import { z } from 'zod'

export const redeemSchema = z.object({
  key: z.string().trim().min(1, 'topup:redeem.required').max(64, 'topup:redeem.tooLong'),
})
export type RedeemValues = z.infer<typeof redeemSchema>
