/** Profile form schemas (username ≥ 3, password ≥ 8, confirmation must match; an email to bind with its code). */
import { z } from 'zod'
import { passwordField, usernameField } from '@/features/auth/schema'

export const profileInfoSchema = z.object({
  username: usernameField,
  display_name: z.string().trim().max(40, 'validation.displayNameMax'),
})
export type ProfileInfoValues = z.infer<typeof profileInfoSchema>

export const changePasswordSchema = z
  .object({ original_password: z.string(), password: passwordField, confirm_password: z.string() })
  .refine((v) => v.password === v.confirm_password, { message: 'validation.passwordMismatch', path: ['confirm_password'] })
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>

export const emailBindSchema = z.object({
  email: z.email('validation.email').max(254),
  code: z.string().trim().min(1, 'validation.required').max(20),
})
export type EmailBindValues = z.infer<typeof emailBindSchema>
