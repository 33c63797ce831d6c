/** User administration validation (username, password, group required; quota ≥ 0). */
import { z } from 'zod'
import { password, username } from '../auth/auth.schema'
import { optionalLimitFields } from '../shared/limit-fields'
import { accepting } from '../../lib/validate'
import type { CreateUserBody, ManageUserBody, QuotaChangeBody, UpdateUserBody } from '../../../shared/contract/users'

const group = z.string().trim().min(1, 'Group is required').max(64)
const quota = z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(Number.MAX_SAFE_INTEGER)

export const createUserSchema = accepting<CreateUserBody>()(
  z.object({
    username,
    password,
    display_name: z.string().trim().max(40).default(''),
    email: z.union([z.literal(''), z.email('must be a valid email')]).default(''),
    group: group.default('default'),
    quota: quota.default(0),
  })
)

export const updateUserSchema = accepting<UpdateUserBody>()(
  z.object({
    id: z.coerce.number().int().positive(),
    username,
    display_name: z.string().trim().max(40).default(''),
    email: z.union([z.literal(''), z.email('must be a valid email')]).default(''),
    password: z.union([z.literal(''), password]).optional(),
    group,
    quota: quota.optional(),
    /** The default limits and budget of the user's tokens (absent: unchanged). */
    ...optionalLimitFields,
  })
)

export const manageSchema = accepting<ManageUserBody>()(
  z
    .object({
      id: z.coerce.number().int().positive().optional(),
      username: z.string().trim().min(1).max(64).optional(),
      action: z.enum(['disable', 'enable', 'delete', 'promote', 'demote']),
    })
    .refine((v) => v.id !== undefined || v.username !== undefined, { message: 'id or username is required', path: ['id'] })
)

export const quotaSchema = accepting<QuotaChangeBody>()(
  z.object({
    quota: z.coerce
      .number()
      .int('must be an integer')
      .refine((v) => v !== 0, 'must not be zero')
      .refine((v) => Math.abs(v) <= Number.MAX_SAFE_INTEGER, 'too large'),
    remark: z.string().trim().max(200).default(''),
  })
)
