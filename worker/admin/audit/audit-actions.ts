/**
 * Which audit action a management route records: `<target>.<verb>` derived from the route pattern
 * (first path segment is the target; the rest, or the method, the verb), with overrides where the
 * derived name would read badly, and the routes that change nothing worth auditing (sign-in steps,
 * challenges, read-only POSTs). route-actions.test.ts proves every state-changing route has one.
 */

/** Routes (METHOD + pattern under /api) that record no audit row: sign-in and verification steps and read-only POSTs. */
export const UNAUDITED = new Set([
  'POST /api/setup',
  'POST /api/user/register',
  'POST /api/user/reset',
  'POST /api/user/login',
  'POST /api/user/login/2fa',
  'POST /api/user/login/2fa/passkey',
  'POST /api/user/login/2fa/passkey/options',
  'POST /api/user/passkey/login',
  'POST /api/user/passkey/login/options',
  'POST /api/user/passkey/register/options',
  'POST /api/user/step_up',
  'POST /api/user/step_up/passkey/options',
  'POST /api/telegram/webhook',
  'POST /api/channel/provider_models_list',
  'POST /api/import/check',
])

/** Names that derivation would get wrong or unclear. */
export const ACTION_OVERRIDES: Record<string, string> = {
  'PUT /api/token/admin': 'token.update',
  'DELETE /api/token/admin/:id': 'token.delete',
  'POST /api/token/:id/key': 'token.reveal_key',
  'POST /api/token/admin/:id/key': 'token.reveal_key',
  'PUT /api/payment/': 'payment_gateway.update',
  'POST /api/payment/': 'payment_gateway.create',
  'DELETE /api/payment/:id{[0-9]+}': 'payment_gateway.delete',
  'POST /api/payment/order/:id{[0-9]+}/refund': 'payment_order.refund',
  'PUT /api/option/': 'option.update',
  'PUT /api/user/self': 'user.update_self',
  'PUT /api/prices/single/:model{.+}': 'price.update',
  'POST /api/prices/single': 'price.create',
  'DELETE /api/prices/single/:model{.+}': 'price.delete',
  'POST /api/prices/multiple': 'price.update_multiple',
  'PUT /api/prices/multiple/delete': 'price.delete_multiple',
  'POST /api/prices/sync': 'price.sync',
  'PUT /api/channel_tag/:tag/status/:status': 'channel_tag.status',
}

const VERB: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' }
/** Path segments that say who may call, not what changes. */
const NOISE = new Set(['admin'])

const clean = (segment: string) => segment.replace(/[^a-z0-9_]/gi, '_').toLowerCase()

/** The action of a state-changing route, or null when the route records none. */
export function auditAction(method: string, pattern: string): string | null {
  const key = `${method} ${pattern}`
  if (UNAUDITED.has(key)) return null
  const override = ACTION_OVERRIDES[key]
  if (override) return override
  const [target = 'api', ...rest] = pattern
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter((s) => s && !s.startsWith(':') && !NOISE.has(s))
    .map(clean)
  const verb = VERB[method] ?? clean(method)
  if (rest.length === 0) return `${target}.${verb}`
  return method === 'DELETE' ? `${target}.delete_${rest.join('_')}` : `${target}.${rest.join('_')}`
}

/** The target type of an action: its part before the dot. */
export const targetTypeOf = (action: string) => action.slice(0, action.indexOf('.'))
