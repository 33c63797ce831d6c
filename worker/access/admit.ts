/**
 * Admission of an API key, the one entry of every key-authenticated surface (the OpenAI relay and
 * its inbound formats, realtime, the Midjourney/Suno/Kling tasks, /mcp). `admit(c)` parses and
 * verifies the key, finds its record (token-auth.ts: isolate → KV → D1 on a cold miss), applies the
 * cheap refusals (owner disabled, key disabled or expired, IP whitelist, channel pinning rights),
 * then reads the group snapshot once (group-limits.ts) for both the key's effective group and that
 * group's per-user limits. On a warm isolate that is memory only: no D1 read, no Durable Object call.
 * The answer is kept on the request, so a handler and the relay pipeline it calls admit once.
 * The owner's wallet re-checks status, expiry and quota atomically when it reserves.
 */
import type { Context } from 'hono'
import { ROLE, TOKEN_STATUS } from '../../shared/contract/enums'
import { looksLikeImportedKey } from '../../shared/contract/imported-keys'
import type { HonoEnv } from '../env'
import { ipAllowed } from '../lib/cidr'
import { clientIp } from '../lib/client-ip'
import { ApiError } from '../lib/errors'
import { getTokenSecret } from '../settings/store'
import { effectiveGroup, groupLimitsSnapshot, ratesOf } from './group-limits'
import { importedKeysPresent } from './imported-keys'
import { findToken, type RelayAuth } from './token-auth'
import { parseKeyHeader, verifyTokenKey } from './token-key'

const unauthorized = (message: string, code = 'invalid_api_key') => new ApiError(401, message, { code })

/** Gemini clients send the key in `x-goog-api-key` or, on the Gemini paths (/v1beta), in `?key=`. */
const googleKey = (c: Context<HonoEnv>) => c.req.header('x-goog-api-key') ?? (c.req.path.startsWith('/v1beta/') ? c.req.query('key') : undefined)

/**
 * `keyHeader` overrides where the key is read from (midjourney-proxy clients send `mj-api-secret`,
 * realtime browsers a WebSocket subprotocol). Refusals are `ApiError`s each surface renders in its envelope.
 */
export async function admit(c: Context<HonoEnv>, keyHeader?: string): Promise<RelayAuth> {
  const kept = c.get('admission')
  if (kept && kept.keyHeader === keyHeader) return kept.auth
  const auth = await admitKey(c, keyHeader)
  c.set('admission', { keyHeader, auth })
  return auth
}

async function admitKey(c: Context<HonoEnv>, keyHeader: string | undefined): Promise<RelayAuth> {
  const parsed = parseKeyHeader(keyHeader || c.req.header('authorization'), c.req.header('x-api-key') ?? googleKey(c))
  if (!parsed) throw unauthorized('No API key provided. Use "Authorization: Bearer sk-…".', 'missing_api_key')
  const secret = await getTokenSecret(c.env, c.executionCtx)
  const signed = await verifyTokenKey(parsed.key, secret)
  if (!signed && !(looksLikeImportedKey(parsed.key) && (await importedKeysPresent(c.env)))) throw unauthorized('Incorrect API key provided.')
  const token = await findToken(c.env, parsed.key)
  if (!token || (!signed && !token.imported)) throw unauthorized('Incorrect API key provided.')
  if (token.userStatus !== 1) throw new ApiError(403, 'The account owning this API key is disabled.', { code: 'user_disabled' })
  if (token.status !== TOKEN_STATUS.ENABLED) throw unauthorized('This API key is disabled.', 'token_disabled')
  if (token.expiredTime !== -1 && token.expiredTime * 1000 <= Date.now()) throw unauthorized('This API key has expired.', 'token_expired')
  if (token.ips && !ipAllowed(clientIp(c.req), token.ips)) {
    throw new ApiError(403, `This API key may not be used from ${clientIp(c.req)}.`, { code: 'ip_not_allowed' })
  }
  if ((parsed.pinChannel !== undefined || parsed.excludeChannel !== undefined) && token.userRole < ROLE.ADMIN) {
    throw new ApiError(403, 'Only administrators may pin or exclude channels with "#".', { code: 'channel_pin_forbidden' })
  }
  const groups = await groupLimitsSnapshot.get(c.env, c.executionCtx)
  const group = effectiveGroup(groups, token)
  return { ...token, group, groupRates: ratesOf(groups, group), pinChannel: parsed.pinChannel, excludeChannel: parsed.excludeChannel }
}
