/**
 * Hono environment: Cloudflare bindings (generated `Env` from `wrangler types`) plus the per-request
 * variables set by middleware.
 */
import type { RequestIdVariables } from 'hono/request-id'
import type { Logger } from './lib/logger'
import type { RelayAuth } from './access/token-auth'

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
  /** The request's logger: JSON lines carrying its request id (lib/logger.ts). */
  log: Logger
  /** The API key admitted on this request, once (access/admit.ts). */
  admission?: { keyHeader: string | undefined; auth: RelayAuth }
  user?: SessionUser
  authMethod?: AuthMethod
  /** The session row's id (SHA-256 of the cookie), when signed in by cookie. */
  sessionId?: string
  /** When the password was last confirmed on this session (Unix seconds; worker/accounts/step-up.ts). */
  stepUpAt?: number
  /** What a handler knows of its change, for the audit row (worker/admin/audit/audit-middleware.ts). */
  audit?: AuditHint
}

/** A handler's facts about its change: the target and its state before and after (for a field-level diff). */
export interface AuditHint {
  targetId?: string | number
  before?: unknown
  after?: unknown
  /** Fields left out of the diff (timestamps and other noise). */
  ignore?: readonly string[]
  /** Paths that hold secrets whatever their name (recorded as changed/unchanged only). */
  secrets?: readonly string[]
}

declare global {
  interface Env {
    /**
     * Only under `npm start` (scripts/serve.mjs): a direct workerd network service for relay calls to
     * suppliers. Miniflare routes the global `fetch` through an extra JS worker (its outbound
     * interceptor) that costs a quarter of a relay request's CPU; on Cloudflare this is unset and
     * the global `fetch` is already direct.
     */
    DIRECT_NETWORK?: Fetcher
    /**
     * Only under `npm start`: a workerd network service that reaches public addresses only
     * (`allow: ["public"]`), for calls to URLs users supply (task hooks, worker/tasks/client-hook.ts),
     * so a DNS name that resolves to a loopback or private address fails. Unset on Cloudflare.
     */
    PUBLIC_NETWORK?: Fetcher
    /**
     * Optional Workers Analytics Engine dataset (the commented `[[analytics_engine_datasets]]` block of
     * wrangler.toml): one data point per relay request (worker/lib/metrics/relay-metrics.ts).
     */
    METRICS_AE?: AnalyticsEngineDataset
  }
}

export interface HonoEnv {
  Bindings: Env
  Variables: AppVariables
}
