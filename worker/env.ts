/**
 * Hono environment: Cloudflare bindings (generated `Env` from `wrangler types`) plus the per-request
 * variables set by middleware.
 */
import type { RequestIdVariables } from 'hono/request-id'

export { ROLE, type Role } from '../shared/contract/enums'

/** The signed-in user as seen by handlers. */
export interface SessionUser {
  id: number
  username: string
  displayName: string
  role: number
  status: number
  group: string
}

export type AuthMethod = 'session' | 'access_token'

export interface AppVariables extends RequestIdVariables {
  user?: SessionUser
  authMethod?: AuthMethod
  sessionId?: string
}

export interface HonoEnv {
  Bindings: Env
  Variables: AppVariables
}
