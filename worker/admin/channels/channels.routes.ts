/**
 * /api/channel (admin): lists and filters, detail (key in clear for root, masked for other admins),
 * create (batch keys), update (an empty key keeps the current one; moving a kept key to another
 * base URL is root's, see stored-key.ts), inline edits, copy, delete
 * (one, batch, all disabled), batch model removal and Azure API version, pool keys (masked, with
 * status; re-enable one), the breakers per model and key, and the status history,
 * speed tests (one or all), live model lists from the supplier, the type catalogue and tags.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { adminRoute } from '../../middleware/access'
import { ApiError } from '../../lib/errors'
import { assertOutboundUrls, proxyUrlProblem } from '../../lib/outbound-url'
import { ok } from '../../lib/respond'
import { idParam, validate } from '../../lib/validate'
import { stepUpFresh } from '../../accounts/step-up'
import { CHANNEL_TYPES, channelType } from '../../providers/registry'
import type { HonoEnv } from '../../env'
import { applyMonitoring, testAllChannels, testChannel } from '../../channels/channel-test'
import { refreshAllBalances, refreshBalance } from '../../channels/channel-balance'
import { requireXsrf } from '../oauth/require-xsrf'
import { enableKeyByAdmin, listBreakers, listHistory, listKeys } from './channel-keys'
import { assertBaseUrlChangeAllowed, auditChannelUpdate, modelsListTarget } from './stored-key'
import { clientIp } from '../../lib/client-ip'
import {
  batchValueSchema,
  channelFields,
  channelKeyParam,
  historyQuery,
  channelListQuery,
  idsSchema,
  patchChannelSchema,
  providerModelsSchema,
  updateChannelSchema,
} from './channels.schema'
import {
  channelIdIs,
  channelIdsIn,
  channelView,
  copyChannel,
  createChannels,
  deleteChannels,
  disabledChannels,
  getChannel,
  listChannels,
  listTags,
  patchChannel,
  removeModel,
  setAzureVersion,
  updateChannel,
} from './channels.service'
import type { BalanceRefreshSummary, ChannelBalance, ChannelTestResult, ChannelType } from '../../../shared/contract/channels'
import { ROLE } from '../../../shared/contract/enums'

export const channelRoutes = new Hono<HonoEnv>()
  .get('/channel/', adminRoute, validate('query', channelListQuery), async (c) => {
    // Searching by key substring would let an admin read keys back one character at a time.
    if (c.req.valid('query').key && c.get('user')!.role < ROLE.ROOT) throw new ApiError(403, 'Only root can search channels by key')
    return ok(c, await listChannels(c.env, c.req.valid('query')))
  })
  .get('/channel/types', adminRoute, (c) =>
    ok(
      c,
      CHANNEL_TYPES.map(
        (t) =>
          ({
            id: t.id,
            name: t.name,
            default_base_url: t.defaultBaseUrl,
            key_hint: t.keyHint,
            base_url_hint: t.baseUrlHint,
            other_hint: t.otherHint ?? '',
            balance: Boolean(t.balance),
            models: t.models,
          }) satisfies ChannelType
      )
    )
  )
  .get('/channel/models', adminRoute, (c) => ok(c, Object.fromEntries(CHANNEL_TYPES.map((t) => [t.id, t.models]))))
  .get('/channel/tags', adminRoute, async (c) => ok(c, await listTags(c.env)))
  // Tests and balance refreshes call suppliers and write results: state-changing GETs (one-hub
  // paths), so each requires the XSRF header like a POST.
  .get('/channel/test', adminRoute, requireXsrf, async (c) => {
    c.executionCtx.waitUntil(testAllChannels(c.env).catch((err) => c.var.log.error('testing all channels failed', { error: err })))
    return ok(c, null, 'Testing all channels in the background; refresh the list in a moment')
  })
  .get('/channel/test/:id', adminRoute, requireXsrf, validate('param', idParam), validate('query', z.object({ model: z.string().trim().max(200).optional() })), async (c) => {
    const channel = await getChannel(c.env, c.req.valid('param').id)
    const result = await testChannel(c.env, channel, c.req.valid('query').model)
    await applyMonitoring(c.env, channel, result, c.executionCtx)
    // A test that never reached the supplier (no test model, not a chat model) is the admin's input error.
    if (!result.success) throw new ApiError(result.reached ? 502 : 400, result.message, { data: { time: result.time } })
    return ok(c, { time: result.time } satisfies ChannelTestResult, `Channel test succeeded in ${result.time.toFixed(2)} s`)
  })
  .get('/channel/update_balance', adminRoute, requireXsrf, async (c) => {
    const result = await refreshAllBalances(c.env)
    return ok(c, result satisfies BalanceRefreshSummary, `Updated ${result.updated} balances${result.failed ? `, ${result.failed} failed` : ''}`)
  })
  .get('/channel/update_balance/:id{[0-9]+}', adminRoute, requireXsrf, validate('param', idParam), async (c) => {
    const balance = await refreshBalance(c.env, await getChannel(c.env, c.req.valid('param').id))
    return ok(c, { balance } satisfies ChannelBalance, 'Balance updated')
  })
  .post('/channel/provider_models_list', adminRoute, validate('json', providerModelsSchema), async (c) => {
    const body = c.req.valid('json')
    assertOutboundUrls(c.env, body.base_url, 'base_url')
    const stored = !body.key && body.id !== undefined ? await getChannel(c.env, body.id) : undefined
    const target = modelsListTarget(c.get('user')!, body, stored)
    if (!target?.key) throw new ApiError(400, 'Key cannot be empty', { data: { fields: { key: 'Key cannot be empty' } } })
    const type = channelType(target.type)!
    if (!type.adapter.modelsRequest || !type.adapter.parseModels) throw new ApiError(400, 'This channel type cannot list its models')
    const res = await fetch(type.adapter.modelsRequest(target)).catch((err: Error) => {
      throw new ApiError(502, `Failed to get model list: ${err.message}`)
    })
    if (!res.ok) throw new ApiError(502, `Failed to get model list: the supplier answered ${res.status}`)
    const models = type.adapter.parseModels(await res.json().catch(() => ({})))
    return ok(c, [...new Set(models)].sort())
  })
  // Supplier keys in clear are root's alone; other admins get the masked key and may replace it.
  .get('/channel/:id', adminRoute, validate('param', idParam), async (c) =>
    // The secret itself only to root with a fresh step-up; otherwise the form keeps it (key_masked).
    ok(c, channelView(await getChannel(c.env, c.req.valid('param').id), c.get('user')!.role >= ROLE.ROOT && stepUpFresh(c), true))
  )
  .post('/channel/', adminRoute, validate('json', channelFields), async (c) => {
    assertOutboundUrls(c.env, c.req.valid('json').base_url, 'base_url')
    assertOutboundUrls(c.env, c.req.valid('json').proxy, 'proxy', proxyUrlProblem)
    const created = await createChannels(c.env, c.req.valid('json'))
    c.set('audit', { targetId: created.map((ch) => ch.id).join(',') })
    return ok(
      c,
      created.map((ch) => channelView(ch)),
      created.length > 1 ? `Created ${created.length} channels` : 'Created'
    )
  })
  .post('/channel/copy/:id', adminRoute, validate('param', idParam), async (c) => ok(c, channelView(await copyChannel(c.env, c.req.valid('param').id)), 'Copied'))
  .put('/channel/', adminRoute, validate('json', updateChannelSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    assertOutboundUrls(c.env, body.base_url, 'base_url')
    assertOutboundUrls(c.env, body.proxy, 'proxy', proxyUrlProblem)
    const before = await getChannel(c.env, body.id)
    assertBaseUrlChangeAllowed(actor, before, body)
    const after = await updateChannel(c.env, body.id, body)
    await auditChannelUpdate(c.env, actor, before, after, clientIp(c.req))
    c.set('audit', { targetId: body.id, before, after })
    return ok(c, channelView(after), 'Updated')
  })
  .patch('/channel/', adminRoute, validate('json', patchChannelSchema), async (c) => {
    const { id, ...patch } = c.req.valid('json')
    return ok(c, channelView(await patchChannel(c.env, id, patch, c.get('user')!.username)), 'Updated')
  })
  // Pool keys (masked) with their status, re-enabling one, and the channel's status history.
  .get('/channel/:id/keys', adminRoute, validate('param', idParam), async (c) => ok(c, await listKeys(c.env, await getChannel(c.env, c.req.valid('param').id))))
  .get('/channel/:id/breakers', adminRoute, validate('param', idParam), async (c) => ok(c, await listBreakers(c.env, await getChannel(c.env, c.req.valid('param').id))))
  .post('/channel/:id/keys/:hash/enable', adminRoute, validate('param', channelKeyParam), async (c) => {
    const { id, hash } = c.req.valid('param')
    await enableKeyByAdmin(c.env, await getChannel(c.env, id), hash, c.get('user')!.username, c.executionCtx)
    return ok(c, null, 'Key enabled')
  })
  .get('/channel/:id/history', adminRoute, validate('param', idParam), validate('query', historyQuery), async (c) => {
    const { p, page_size } = c.req.valid('query')
    return ok(c, await listHistory(c.env, (await getChannel(c.env, c.req.valid('param').id)).id, p, page_size))
  })
  .put('/channel/batch/azure_api', adminRoute, validate('json', batchValueSchema), async (c) => {
    const { ids, value } = c.req.valid('json')
    return ok(c, await setAzureVersion(c.env, ids, value), 'Updated')
  })
  .put('/channel/batch/del_model', adminRoute, validate('json', batchValueSchema), async (c) => {
    const { ids, value } = c.req.valid('json')
    return ok(c, await removeModel(c.env, ids, value), 'Updated')
  })
  .delete('/channel/disabled', adminRoute, async (c) => ok(c, await deleteChannels(c.env, disabledChannels), 'Deleted'))
  .delete('/channel/batch', adminRoute, validate('json', idsSchema), async (c) => ok(c, await deleteChannels(c.env, channelIdsIn(c.req.valid('json').ids)), 'Deleted'))
  .delete('/channel/:id', adminRoute, validate('param', idParam), async (c) => {
    const n = await deleteChannels(c.env, channelIdIs(c.req.valid('param').id))
    if (n === 0) throw new ApiError(404, 'Channel not found')
    return ok(c, n, 'Deleted')
  })
