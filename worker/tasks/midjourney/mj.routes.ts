/**
 * The midjourney-proxy surface of the relay, mounted at /mj and at /mj-fast/mj, /mj-turbo/mj,
 * /mj-relax/mj. The gateway key comes in `mj-api-secret` (or Authorization). Errors answer in
 * midjourney-proxy's `{code, description, result}` envelope with real HTTP statuses. Fetches read
 * our D1 rows (own tasks only) and refresh unfinished ones from the upstream on the way; their
 * image links go through the image proxy setting (task-images.ts). `/mj/notify/:id` takes the
 * upstream's callbacks (mj-notify.ts) and `/mj/image/:id` streams a task's image.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { ApiError } from '../../lib/errors'
import { errorHandler, ownFailuresLogged } from '../../lib/error-handler'
import type { HonoEnv } from '../../env'
import { getRoutingTable } from '../../channels/routing-table'
import { admit } from '../../access/admit'
import { mjDto, mjHeaders, ownMjTask, refreshMjTasks, type MjRow } from './mj-store'
import { handleMjNotify } from './mj-notify'
import { submitMj, type MjMode, type MjRoute } from './mj-submit'
import { requestImageRewriter, streamImage, validImageSignature } from '../task-images'

export const MJ_MODE_PREFIXES = ['mj-fast', 'mj-turbo', 'mj-relax'] as const

/** midjourney-proxy return codes for our own refusals. */
const codeOf = (status: number) => (status === 400 ? 4 : status === 404 ? 3 : status === 429 ? 23 : 9)

function modeOf(c: Context<HonoEnv>): MjMode {
  const first = c.req.path.split('/')[1]
  return first === 'mj-turbo' ? 'turbo' : first === 'mj-relax' ? 'relax' : 'fast'
}

const auth = (c: Context<HonoEnv>) => admit(c, c.req.header('mj-api-secret'))

const ListBody = z.object({ ids: z.array(z.string().max(64)).max(100) }).passthrough()

/** Client DTOs with the image links the image proxy setting asks for. */
async function dtos(c: Context<HonoEnv>, rows: MjRow[]) {
  const rewrite = await requestImageRewriter(c)
  return Promise.all(rows.map(async (r) => ({ ...mjDto(r), imageUrl: await rewrite(r.id, r.image_url) })))
}

async function refreshed(c: Context<HonoEnv>, rows: MjRow[]): Promise<MjRow[]> {
  if (rows.every((r) => r.progress === '100%')) return rows
  const table = await getRoutingTable(c.env, c.executionCtx)
  return refreshMjTasks(c.env, rows, table.channels)
}

const SUBMIT_ROUTES: MjRoute[] = ['imagine', 'change', 'simple-change', 'describe', 'blend', 'shorten', 'action', 'modal', 'upload-discord-images']

export function createMjApp() {
  const app = new Hono<HonoEnv>()
  app.use(
    bodyLimit({
      maxSize: 32 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 32 MB)')
      },
    })
  )
  for (const route of SUBMIT_ROUTES) app.post(`/submit/${route}`, async (c) => submitMj(c, await auth(c), route, modeOf(c)))
  app.post('/insight-face/swap', async (c) => submitMj(c, await auth(c), 'swap', modeOf(c)))
  app.get('/task/:id/fetch', async (c) => {
    const a = await auth(c)
    const row = await ownMjTask(c.env, a.userId, c.req.param('id'))
    if (!row) throw new ApiError(404, 'Task not found.')
    const [dto] = await dtos(c, await refreshed(c, [row]))
    return c.json(dto!)
  })
  app.post('/task/list-by-condition', async (c) => {
    const a = await auth(c)
    const parsed = ListBody.safeParse(await c.req.json().catch(() => null))
    if (!parsed.success) throw new ApiError(400, 'The body must be {"ids": [up to 100 task ids]}.')
    const ids = [...new Set(parsed.data.ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number))]
    if (ids.length === 0) return c.json([])
    const { results } = await c.env.DB.prepare(`SELECT * FROM midjourneys WHERE user_id = ? AND id IN (${ids.map(() => '?').join(',')}) ORDER BY id`)
      .bind(a.userId, ...ids)
      .all<MjRow>()
    return c.json(await dtos(c, await refreshed(c, results)))
  })
  app.get('/task/:id/image-seed', async (c) => {
    const a = await auth(c)
    const row = await ownMjTask(c.env, a.userId, c.req.param('id'))
    if (!row || !row.mj_id) throw new ApiError(404, 'Task not found.')
    const channel = (await getRoutingTable(c.env, c.executionCtx)).channels[row.channel_id]
    if (!channel) throw new ApiError(503, 'The channel that ran this task is not available.')
    const res = await fetch(`${channel.baseUrl.replace(/\/+$/, '')}/mj/task/${encodeURIComponent(row.mj_id)}/image-seed`, {
      headers: mjHeaders(channel),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined)
    if (!res) throw new ApiError(502, 'The Midjourney upstream could not be reached.')
    const body = await res.json().catch(() => undefined)
    if (!res.ok || !body) throw new ApiError(502, `The Midjourney upstream answered HTTP ${res.status}.`)
    return c.json(body)
  })
  app.post('/notify/:id', handleMjNotify)
  app.get('/image/:id', async (c) => {
    const id = c.req.param('id')
    if (!/^\d{1,15}$/.test(id)) throw new ApiError(404, 'Task not found.')
    let row: MjRow | null
    if (c.req.query('sig')) {
      if (!(await validImageSignature(c.env, Number(id), c.req.query('exp'), c.req.query('sig')))) throw new ApiError(403, 'This image link is invalid or has expired.')
      row = await c.env.DB.prepare('SELECT * FROM midjourneys WHERE id = ?').bind(Number(id)).first<MjRow>()
    } else row = await ownMjTask(c.env, (await auth(c)).userId, id)
    if (!row || !row.image_url) throw new ApiError(404, 'Task not found or it has no image.')
    return streamImage(c.env, row.image_url)
  })
  app.all('*', () => {
    throw new ApiError(404, 'No such Midjourney route.')
  })
  app.onError(errorHandler((e, c) => c.json({ code: codeOf(e.status), description: e.message, type: e.code ?? e.type, result: null, properties: {} }, e.status), ownFailuresLogged))
  return app
}
