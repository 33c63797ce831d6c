/** Token form validation (name required; quota ≥ 0; IP/CIDR whitelist; model whitelist; limits and budget). */
import { z } from 'zod'
import { isValidIpOrCidr } from '../../lib/cidr'
import { limitFields } from '../shared/limit-fields'
import { MCP_TOOL_PATTERN, MCP_TOOLS_MAX, type TokenBody } from '../../../shared/contract/tokens'
import { accepting } from '../../lib/validate'
import { TOKEN_STATUS } from '../../../shared/contract/enums'

const setting = z
  .object({
    limits: z
      .object({
        limit_model_setting: z.object({ enabled: z.boolean(), models: z.array(z.string().trim().min(1).max(200)).max(500) }).optional(),
        limits_ip_setting: z
          .object({
            enabled: z.boolean(),
            whitelist: z
              .array(z.string().trim())
              .max(200)
              .refine((list) => list.every(isValidIpOrCidr), 'every entry must be an IP address or CIDR range'),
          })
          .optional(),
      })
      .optional(),
  })
  .default({})

export const tokenFields = accepting<TokenBody>()(
  z.object({
    name: z.string().trim().min(1, 'Name is required').max(50, 'must be at most 50 characters'),
    remain_quota: z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(Number.MAX_SAFE_INTEGER).default(0),
    unlimited_quota: z.boolean().default(false),
    expired_time: z.coerce
      .number()
      .int()
      .refine((v) => v === -1 || v > 0, 'must be -1 (never) or a Unix time')
      .default(-1),
    group: z.string().trim().max(64).default(''),
    chat_cache: z.boolean().default(false),
    setting,
    /** MCP tool allowlist; left out of an update, the stored list stays. */
    mcp_tools: z.array(z.string().trim().regex(MCP_TOOL_PATTERN, 'letters, digits, _ . - / and * only')).max(MCP_TOOLS_MAX).optional(),
    ...limitFields,
  })
)

export const createTokenSchema = tokenFields

export const updateTokenSchema = tokenFields.extend({ id: z.coerce.number().int().positive() })

export const statusSchema = z.object({ id: z.coerce.number().int().positive(), status: z.union([z.literal(TOKEN_STATUS.ENABLED), z.literal(TOKEN_STATUS.DISABLED)]) })

export const adminSearchQuery = z.object({
  user_id: z.coerce.number().int().positive().optional(),
  token_id: z.coerce.number().int().positive().optional(),
  keyword: z.string().trim().max(100).optional(),
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
})
