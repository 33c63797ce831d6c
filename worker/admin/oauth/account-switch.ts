/**
 * Asking before an external sign-in switches accounts (issue 12): when a browser already has a
 * session and a login callback resolves to a different account (or would create a new one), the
 * session is left alone and the answer carries a pending-switch token (message 'switch'); the
 * console asks "switch account?" and confirming (POST /api/oauth/switch with the token, from the
 * same session) completes the login. The token is a single-use secret valid five minutes.
 */
import type { Context } from 'hono'
import { randomString, sha256Hex } from '../../lib/crypto'
import { consumeSecret, putSecret } from '../../lib/single-use'
import { ok } from '../../lib/respond'
import type { HonoEnv } from '../../env'
import type { ExternalIdentity, Provider } from './accounts'
import type { PendingSwitch as PendingSwitchAnswer } from '../../../shared/contract/oauth'

export const SWITCH_MESSAGE = 'switch'
export const SWITCH_TTL_SECONDS = 5 * 60
export const SWITCH_TOKEN_PATTERN = /^[A-Za-z0-9]{43}$/

interface PendingSwitch {
  /** The signed-in user who must confirm. */
  from: number
  provider: Provider
  identity: ExternalIdentity
}

const key = async (token: string) => `v1:oauth-switch:${await sha256Hex(token)}`

/** Holds the login for confirmation and answers with the token and both account names. */
export async function askBeforeSwitching(c: Context<HonoEnv>, current: { id: number; username: string }, target: string | null, provider: Provider, identity: ExternalIdentity) {
  const token = randomString(43)
  const pending: PendingSwitch = { from: current.id, provider, identity }
  await putSecret(c.env.DB, await key(token), JSON.stringify(pending), SWITCH_TTL_SECONDS)
  // target null: the identity has no account yet, confirming creates one (when registration is open).
  return ok(c, { pending_switch: token, current: current.username, target, provider } satisfies PendingSwitchAnswer, SWITCH_MESSAGE)
}

/** The held login, once, if the token is live and was issued to this signed-in user. */
export async function takePendingSwitch(env: Env, token: string, userId: number): Promise<{ provider: Provider; identity: ExternalIdentity } | undefined> {
  const raw = await consumeSecret(env.DB, await key(token))
  if (!raw) return undefined
  const pending = JSON.parse(raw) as PendingSwitch
  return pending.from === userId ? { provider: pending.provider, identity: pending.identity } : undefined
}
