/**
 * Form schemas of the account pages. Messages are i18n keys of the common namespace
 * (`validation.*`), translated by FormMessage.
 */
import { z } from 'zod'

export const USERNAME_MIN = 3
export const PASSWORD_MIN = 8

export const usernameField = z.string().trim().min(1, 'validation.required').min(USERNAME_MIN, 'validation.usernameMin').max(20, 'validation.usernameMax')
export const passwordField = z.string().min(1, 'validation.required').min(PASSWORD_MIN, 'validation.passwordMin').max(64, 'validation.passwordMax')
export const emailField = z.union([z.literal(''), z.email('validation.email')])

const passwordsMatch = (v: { password: string; confirm_password: string }) => v.password === v.confirm_password
const mismatch = { message: 'validation.passwordMismatch', path: ['confirm_password'] }

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'validation.required'),
  password: z.string().min(1, 'validation.required'),
})
export type LoginValues = z.infer<typeof loginSchema>

export const setupSchema = z.object({ username: usernameField, password: passwordField, confirm_password: z.string(), code: z.string().trim() }).refine(passwordsMatch, mismatch)
export type SetupValues = z.infer<typeof setupSchema>

export function registerSchema(emailRequired: boolean) {
  return z
    .object({
      username: usernameField,
      email: emailRequired ? z.email('validation.email') : emailField,
      password: passwordField,
      confirm_password: z.string(),
      verification_code: emailRequired ? z.string().trim().min(1, 'validation.required') : z.string().trim(),
      aff_code: z.string().trim(),
    })
    .refine(passwordsMatch, mismatch)
}
export type RegisterValues = z.infer<ReturnType<typeof registerSchema>>

export const resetRequestSchema = z.object({ email: z.email('validation.email') })
export type ResetRequestValues = z.infer<typeof resetRequestSchema>
