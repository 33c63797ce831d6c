/**
 * /api/prices (one-hub paths): the price list, single and merged edits, sync from a remote list,
 * the model catalogue for the editor; and /api/available_model, the models (with prices after the
 * group ratio) a caller's group can use. Every price write leaves one manage-log row (prices.service `audited`).
 */
import type { AvailableModels, RemotePrice } from '../../../shared/contract/pricing'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { adminRoute, publicRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { ApiError } from '../../lib/errors'
import { assertOutboundUrls } from '../../lib/outbound-url'
import { readCapped } from '../../providers/url'
import { validate } from '../../lib/validate'
import { getPriceTable, groupRatio, resolvePrice } from '../../billing/pricing'
import { channelType } from '../../providers/registry'
import { getRoutingTable, modelsOfGroup, type RoutingTable } from '../../channels/routing-table'
import { groupLimitsSnapshot } from '../../access/group-limits'
import { getSettings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { clientIp } from '../../lib/client-ip'
import { DEFAULT_PRICES } from '../../../shared/contract/default-prices'
import { deleteManySchema, multipleSchema, priceFields, remotePriceList, syncModeQuery } from './prices.schema'
import { audited, createPrice, deletePrices, listPrices, modelCatalogue, priceView, setMultiple, syncPrices, updatePrice } from './prices.service'

export const DEFAULT_PRICE_LIST_URL = 'https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json'

const modelParam = z.object({ model: z.string().min(1).max(400) })

/** Model → the type of the first channel serving it, computed once per routing snapshot (not per call). */
const ownersByTable = new WeakMap<RoutingTable, Map<string, number>>()
function modelOwners(table: RoutingTable): Map<string, number> {
  let owners = ownersByTable.get(table)
  if (!owners) {
    owners = new Map()
    for (const ch of Object.values(table.channels)) for (const m of ch.models) if (!owners.has(m)) owners.set(m, ch.type)
    ownersByTable.set(table, owners)
  }
  return owners
}

/** A price write by the signed-in admin, audited under `action`. */
const write = <T>(c: Context<HonoEnv>, action: string, run: () => Promise<T>) => audited(c.env, c.get('user')!, clientIp(c.req), action, run)

export const priceRoutes = new Hono<HonoEnv>()
  .get('/prices', adminRoute, validate('query', z.object({ type: z.enum(['db', 'default']).default('db') })), async (c) =>
    ok(c, c.req.valid('query').type === 'default' ? DEFAULT_PRICES : await listPrices(c.env))
  )
  .get('/prices/model_list', adminRoute, async (c) => ok(c, await modelCatalogue(c.env)))
  .get('/prices/updateService', adminRoute, (c) => ok(c, DEFAULT_PRICE_LIST_URL))
  .post('/prices/single', adminRoute, validate('json', priceFields), async (c) =>
    ok(c, priceView(await write(c, 'create', () => createPrice(c.env, c.req.valid('json')))), 'Created')
  )
  .put('/prices/single/:model{.+}', adminRoute, validate('param', modelParam), validate('json', priceFields), async (c) =>
    ok(c, priceView(await write(c, 'update', () => updatePrice(c.env, decodeURIComponent(c.req.valid('param').model), c.req.valid('json')))), 'Updated')
  )
  .delete('/prices/single/:model{.+}', adminRoute, validate('param', modelParam), async (c) =>
    ok(c, await write(c, 'delete', () => deletePrices(c.env, [decodeURIComponent(c.req.valid('param').model)])), 'Deleted')
  )
  .post('/prices/multiple', adminRoute, validate('json', multipleSchema), async (c) => {
    const { original_models, models, ...fields } = c.req.valid('json')
    await write(c, 'multiple', () => setMultiple(c.env, original_models, models, fields))
    return ok(c, null, 'Saved')
  })
  .put('/prices/multiple/delete', adminRoute, validate('json', deleteManySchema), async (c) =>
    ok(c, await write(c, 'delete', () => deletePrices(c.env, c.req.valid('json').models)), 'Deleted')
  )
  .get('/prices/remote', adminRoute, validate('query', z.object({ url: z.url('must be a valid URL').refine((u) => /^https?:/i.test(u), 'must be an http(s) URL') })), async (c) => {
    // Fetched by the Worker so the console needs neither CORS on the list's host nor a CSP exception.
    assertOutboundUrls(c.env, c.req.valid('query').url, 'url')
    const res = await fetch(c.req.valid('query').url, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } }).catch((err: Error) => {
      throw new ApiError(502, `Failed to fetch the price list: ${err.message}`)
    })
    if (!res.ok) throw new ApiError(502, `Failed to fetch the price list: the server answered ${res.status}`)
    const text = await readCapped(res, 5 * 1024 * 1024)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ApiError(400, 'Data format is incorrect: the price list is not JSON')
    }
    const parsed = remotePriceList.safeParse(json)
    if (!parsed.success) throw new ApiError(400, 'Data format is incorrect: expected an array of {model, type, channel_type, input, output} or the list of new-api’s /api/pricing')
    return ok(c, parsed.data satisfies RemotePrice[])
  })
  .post('/prices/sync', adminRoute, validate('query', syncModeQuery), validate('json', remotePriceList), async (c) => {
    const mode = c.req.valid('query').updateMode
    const result = await write(c, `sync.${mode}`, () => syncPrices(c.env, mode, c.req.valid('json')))
    return ok(c, result, 'Prices updated')
  })
  .get('/available_model', publicRoute, async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    const [table, priceTable, limits] = await Promise.all([
      getRoutingTable(c.env, c.executionCtx),
      getPriceTable(c.env, c.executionCtx),
      groupLimitsSnapshot.get(c.env, c.executionCtx),
    ])
    const user = c.get('user')
    // Signed in: the user's own group. Anonymous: only groups anyone may join (public and enabled).
    const groups = user ? [user.group] : Object.keys(table.groups).filter((g) => Object.hasOwn(limits, g) && limits[g]!.public)
    const ratio = user ? (groupRatio(settings, user.group) ?? 1) : 1
    const owners = modelOwners(table)
    const models = new Map<string, { model: string; owned_by: string; groups: string[] }>()
    for (const g of groups) {
      for (const m of modelsOfGroup(table, g)) {
        const entry = models.get(m) ?? { model: m, owned_by: channelType(owners.get(m) ?? 0)?.name ?? 'Custom', groups: [] }
        entry.groups.push(g)
        models.set(m, entry)
      }
    }
    const data = [...models.values()].map((m) => {
      const price = resolvePrice(priceTable, m.model)
      return {
        ...m,
        priced: Boolean(price),
        type: price?.type ?? null,
        input: price ? price.input * ratio : null,
        output: price ? price.output * ratio : null,
        tier: price?.tier ? { threshold_tokens: price.tier.threshold, input: price.tier.input * ratio, output: price.tier.output * ratio } : null,
        fee: price?.fee ? Math.ceil(price.fee * ratio) : 0,
        extra_ratios: price?.extraRatios ?? null,
      }
    })
    return ok(c, { group: user?.group ?? null, group_ratio: ratio, models: data } satisfies AvailableModels)
  })
