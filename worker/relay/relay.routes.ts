/**
 * The OpenAI-compatible data plane: /v1 endpoints (every POST goes through relay-request.ts), the
 * model list the token may use, and the legacy billing endpoints (also under /v1).
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { ApiError } from '../lib/errors'
import { channelType } from '../providers/registry'
import type { RelayOp } from '../providers/types'
import { getSettings } from '../settings/store'
import type { HonoEnv } from '../env'
import { relayRequest } from './relay-request'
import { chatWithMcp } from './mcp-loop/chat-mcp'
import { anthropicApp } from './inbound/anthropic/anthropic.routes'
import { responsesApp } from './inbound/responses/responses.routes'
import { realtimeHandler } from './realtime/realtime.routes'
import { getRoutingTable, modelsOfGroup, type RoutingTable } from '../channels/routing-table'
import type { RelayAuth } from '../access/token-auth'
import { admit } from '../access/admit'
import { walletOf } from '../wallet/wallet-client'

const POST_ROUTES: [string, RelayOp][] = [
  ['/chat/completions', 'chat'],
  ['/completions', 'completions'],
  ['/embeddings', 'embeddings'],
  ['/moderations', 'moderations'],
  ['/images/generations', 'images.generations'],
  ['/images/edits', 'images.edits'],
  ['/images/variations', 'images.variations'],
  ['/audio/speech', 'audio.speech'],
  ['/audio/transcriptions', 'audio.transcriptions'],
  ['/audio/translations', 'audio.translations'],
  ['/rerank', 'rerank'],
]

function modelsFor(table: RoutingTable, auth: RelayAuth) {
  const created = 1_700_000_000
  return modelsOfGroup(table, auth.group)
    .filter((id) => !auth.models || auth.models.includes(id))
    .map((id) => {
      const owner = Object.values(table.channels).find((ch) => ch.models.includes(id))
      return { id, object: 'model' as const, created, owned_by: channelType(owner?.type ?? 0)?.name ?? 'custom' }
    })
}

async function billing(c: Context<HonoEnv>, kind: 'subscription' | 'usage') {
  const auth = await admit(c)
  const settings = await getSettings(c.env, c.executionCtx)
  const unit = settings.int('QuotaPerUnit')
  const b = await walletOf(c.env, auth.userId).balance({ userId: auth.userId, tokenId: auth.id })
  if (!b) throw new ApiError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' })
  // DisplayTokenStatEnabled: a limited key reports its own quota; off (or an unlimited key), the account's.
  const token = settings.bool('DisplayTokenStatEnabled') && b.token && !b.token.unlimited ? b.token : undefined
  const used = token ? token.used : b.usedQuota
  if (kind === 'usage') return c.json({ object: 'list', total_usage: Math.round((used / unit) * 100 * 1e6) / 1e6 })
  const total = token ? token.remain + token.used : b.quota + b.usedQuota
  const usd = Math.round((total / unit) * 100) / 100
  return c.json({
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: usd,
    hard_limit_usd: usd,
    system_hard_limit_usd: usd,
    access_until: auth.expiredTime === -1 ? 0 : auth.expiredTime,
  })
}

const relay = new Hono<HonoEnv>()
  .use(
    bodyLimit({
      maxSize: 32 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 32 MB)')
      },
    })
  )
  .get('/models', async (c) => {
    const auth = await admit(c)
    return c.json({ object: 'list', data: modelsFor(await getRoutingTable(c.env, c.executionCtx), auth) })
  })
  .get('/models/:model{.+}', async (c) => {
    const auth = await admit(c)
    const model = modelsFor(await getRoutingTable(c.env, c.executionCtx), auth).find((m) => m.id === c.req.param('model'))
    if (!model) throw new ApiError(404, `The model '${c.req.param('model')}' does not exist or you do not have access to it.`, { code: 'model_not_found', param: 'model' })
    return c.json(model)
  })
  .get('/dashboard/billing/subscription', (c) => billing(c, 'subscription'))
  .get('/dashboard/billing/usage', (c) => billing(c, 'usage'))

for (const [path, op] of POST_ROUTES) relay.post(path, async (c) => (op === 'chat' && (await chatWithMcp(c))) || relayRequest(c, op))
// Other inbound formats (worker/relay/inbound/<format>/), each with its own error envelope.
relay.route('/', anthropicApp)
relay.route('/', responsesApp)
relay.get('/realtime', realtimeHandler)

export const relayApp = relay

/** Legacy billing endpoints outside /v1. */
export const legacyBillingApp = new Hono<HonoEnv>().get('/billing/subscription', (c) => billing(c, 'subscription')).get('/billing/usage', (c) => billing(c, 'usage'))
