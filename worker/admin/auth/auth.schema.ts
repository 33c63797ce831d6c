/** Input schemas of setup, login, register and profile updates. */
import { z } from 'zod'
import { accepting } from '../../lib/validate'
import type { Credentials, RegisterBody, SetupBody } from '../../../shared/contract/auth'
import type { UpdateSelfBody } from '../../../shared/contract/users'

export const username = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(20, 'must be at most 20 characters')
  // No @: sign-in takes a username or an email, so a username must never look like an address.
  .regex(/^[^\s<>"'&@]+$/, 'must not contain spaces, @ or <>"\'&')
export const password = z.string().min(8, 'must be at least 8 characters').max(64, 'must be at most 64 characters')

export const setupSchema = accepting<SetupBody>()(
  z
    .object({ username, password, confirm_password: password.optional(), code: z.string().trim().max(200).optional() })
    .refine((v) => v.confirm_password === undefined || v.confirm_password === v.password, {
      message: 'passwords do not match',
      path: ['confirm_password'],
    })
)

export const loginSchema = accepting<Credentials>()(
  z.object({
    username: z.string().trim().min(1, 'is required').max(100),
    password: z.string().min(1, 'is required').max(64),
  })
)

export const registerSchema = accepting<RegisterBody>()(
  z
    .object({
      username,
      password,
      confirm_password: password.optional(),
      email: z.union([z.literal(''), z.email('must be a valid email')]).optional(),
      verification_code: z.string().trim().max(20).optional(),
      aff_code: z.string().trim().max(32).optional(),
    })
    .refine((v) => v.confirm_password === undefined || v.confirm_password === v.password, {
      message: 'passwords do not match',
      path: ['confirm_password'],
    })
)

export const updateSelfSchema = accepting<UpdateSelfBody>()(
  z.object({
    username: username.optional(),
    display_name: z.string().trim().max(40, 'must be at most 40 characters').optional(),
    password: password.optional(),
    original_password: z.string().max(64).optional(),
  })
)
