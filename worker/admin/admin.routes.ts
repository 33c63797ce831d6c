/**
 * The management API under /api: identification (session or access token), CSRF double-submit,
 * the audit trail of state-changing calls, then every resource's routes. Each route declares its minimum role with `access()`.
 */
import { Hono } from 'hono'
import type { RouterRoute } from 'hono/types'
import { bodyLimit } from 'hono/body-limit'
import { csrf } from '../middleware/csrf'
import { sessionAuth } from '../middleware/session-auth'
import { ApiError } from '../lib/errors'
import type { HonoEnv } from '../env'
import { authRoutes } from './auth/auth.routes'
import { optionRoutes } from './options/options.routes'
import { statusRoutes } from './status/status.routes'
import { selfRoutes } from './users/self.routes'
import { twoFactorRoutes } from './two-factor/two-factor.routes'
import { passkeyRoutes } from './passkeys/passkeys.routes'
import { sessionRoutes } from './users/sessions.routes'
import { userAdminRoutes } from './users/users.routes'
import { signInMethodRoutes } from './users/sign-in-methods'
import { tokenRoutes } from './tokens/tokens.routes'
import { channelRoutes } from './channels/channels.routes'
import { channelTagRoutes } from './channels/channel-tags'
import { priceRoutes } from './prices/prices.routes'
import { logRoutes } from './logs/logs.routes'
import { deadLetterRoutes } from './logs/dead-letters.routes'
import { logArchiveRoutes } from './logs/log-archive.routes'
import { redemptionRoutes } from './redemptions/redemptions.routes'
import { planRoutes } from './plans/plans.routes'
import { subscriptionAdminRoutes } from './plans/subscriptions.routes'
import { groupRoutes } from './groups/groups.routes'
import { mcpServerRoutes } from './mcp/mcp.routes'
import { notifyRoutes } from './notify/notify.routes'
import { userNoticeRoutes } from './notify/user-notices.routes'
import { dashboardRoutes } from './dashboard/dashboard.routes'
import { oauthRoutes } from './oauth/oauth.routes'
import { mailRoutes } from './mail/mail.routes'
import { telegramRoutes } from '../telegram/telegram.routes'
import { paymentRoutes } from '../payments/payments.routes'
import { planOrderRoutes } from '../payments/plan-orders.routes'
import { taskListRoutes } from './tasks/tasks.routes'
import { importRoutes } from './import/import.routes'
import { openApiRoutes } from './openapi/openapi.routes'
import { auditRoutes } from './audit/audit.routes'
import { systemRoutes } from './system/system.routes'
import { auditTrail } from './audit/audit-middleware'

export const adminApp = new Hono<HonoEnv>()
  .use(
    bodyLimit({
      maxSize: 2 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 2 MB)')
      },
    })
  )
  .use(csrf)
  .use(sessionAuth)
  // One audit row per successful state-changing call by an administrator or root.
  .use(auditTrail)
  .route('/', statusRoutes)
  .route('/', authRoutes)
  .route('/', oauthRoutes)
  .route('/', mailRoutes)
  .route('/', selfRoutes)
  .route('/', twoFactorRoutes)
  .route('/', passkeyRoutes)
  .route('/', sessionRoutes)
  .route('/', optionRoutes)
  .route('/', redemptionRoutes)
  .route('/', planRoutes)
  .route('/', subscriptionAdminRoutes)
  .route('/', userAdminRoutes)
  .route('/', signInMethodRoutes)
  .route('/', tokenRoutes)
  .route('/', channelRoutes)
  .route('/', channelTagRoutes)
  .route('/', priceRoutes)
  .route('/', deadLetterRoutes)
  .route('/', logArchiveRoutes)
  .route('/', logRoutes)
  .route('/', groupRoutes)
  .route('/', mcpServerRoutes)
  .route('/', notifyRoutes)
  .route('/', userNoticeRoutes)
  .route('/', dashboardRoutes)
  .route('/', telegramRoutes)
  .route('/', paymentRoutes)
  .route('/', planOrderRoutes)
  .route('/', taskListRoutes)
  .route('/', importRoutes)
  .route('/', auditRoutes)
  .route('/', systemRoutes)
  // The document is built from this very table, read lazily on the first request.
  .route(
    '/',
    openApiRoutes((): readonly RouterRoute[] => adminApp.routes)
  )
