/**
 * The Suno-API surface of the relay under /suno: submit music or lyrics (priced per call by the
 * music version `mv`, default chirp-v3-0, or `suno_lyrics`; reserve → settle on `code:"success"`,
 * refund otherwise; accepted tasks join their channel's poll queue), and fetch own tasks one by
 * one or in a batch (refreshed from the upstream on the way). Errors answer `{code, message, data:null}` with real HTTP statuses.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { ApiError } from '../../lib/errors'
import { errorHandler, ownFailuresLogged } from '../../lib/error-handler'
import { nowSeconds } from '../../lib/time'
import type { HonoEnv } from '../../env'
import { getRoutingTable } from '../../channels/routing-table'
import { admit } from '../../access/admit'
import { pickTaskChannel, TaskCharge } from '../task-charge'
import { trackTasks } from '../task-queue'
import { ownSunoTask, refreshSunoTasks, SUNO_CHANNEL_TYPE, sunoDto, sunoHeaders, type TaskRow } from './suno-store'

const text = (max: number) => z.string().max(max).optional()
export const SunoSubmitBody = z
  .object({
    prompt: text(5000),
    gpt_description_prompt: text(5000),
    mv: z
      .string()
      .regex(/^[\w.-]{1,64}$/)
      .optional(),
    title: text(200),
    tags: text(1000),
    continue_at: z.number().finite().min(0).max(36_000).optional(),
    task_id: z.string().max(64).optional(),
    continue_clip_id: z.string().max(128).optional(),
    make_instrumental: z.boolean().optional(),
  })
  .passthrough()

const FetchBody = z.object({ ids: z.array(z.string().max(64)).max(100) }).passthrough()

async function refreshed(c: Context<HonoEnv>, rows: TaskRow[]): Promise<TaskRow[]> {
  if (rows.every((r) => r.progress === '100%')) return rows
  return refreshSunoTasks(c.env, rows, (await getRoutingTable(c.env, c.executionCtx)).channels)
}

async function submit(c: Context<HonoEnv>): Promise<Response> {
  const action = c.req.param('action')!.toUpperCase()
  if (action !== 'MUSIC' && action !== 'LYRICS') throw new ApiError(400, 'The action must be "music" or "lyrics".', { code: 'invalid_request' })
  const auth = await admit(c)
  const parsed = SunoSubmitBody.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) throw new ApiError(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), { code: 'invalid_request' })
  const body: Record<string, unknown> = { ...parsed.data }
  if (action === 'LYRICS' && !parsed.data.prompt) throw new ApiError(400, 'Lyrics need a prompt.', { code: 'invalid_request' })
  if (action === 'MUSIC') body.mv = parsed.data.mv ?? 'chirp-v3-0'
  let origin: TaskRow | null = null
  if (parsed.data.continue_clip_id) {
    if (!parsed.data.task_id) throw new ApiError(400, 'continue_clip_id needs the task_id it continues.', { code: 'invalid_request' })
    origin = await ownSunoTask(c.env, auth.userId, parsed.data.task_id)
    if (!origin) throw new ApiError(404, `Task ${parsed.data.task_id} does not exist.`, { code: 'task_not_exist' })
    body.task_id = origin.task_id
  } else delete body.task_id
  const model = action === 'MUSIC' ? String(body.mv) : 'suno_lyrics'
  const pick = pickTaskChannel(await getRoutingTable(c.env, c.executionCtx), auth, SUNO_CHANNEL_TYPE, model, origin?.channel_id)
  const { channel } = pick
  const charge = new TaskCharge(c, auth, model, pick)
  await charge.reserve()

  let res: Response
  let answer: { code?: unknown; message?: unknown; data?: unknown }
  try {
    res = await fetch(`${channel.baseUrl.replace(/\/+$/, '')}/suno/submit/${action.toLowerCase()}`, {
      method: 'POST',
      headers: sunoHeaders(channel),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    })
    answer = await res.json()
    if (!answer || typeof answer !== 'object') throw new Error('the answer is not a JSON object')
  } catch (err) {
    await charge.refund(`Suno upstream failed: ${(err as Error).message}`)
    throw new ApiError(502, 'The Suno upstream could not be reached or answered garbage.', { code: 'submit_failed' })
  }
  if (!res.ok || answer.code !== 'success' || typeof answer.data !== 'string' || !answer.data) {
    const message = String(answer.message ?? '').slice(0, 500) || `HTTP ${res.status}`
    await charge.refund(`Suno refused the task: ${message}`, { upstream_code: answer.code ?? null, upstream_status: res.status })
    throw new ApiError(res.status === 400 ? 400 : res.status === 429 ? 429 : 502, `The Suno upstream refused the task: ${message}`, { code: 'submit_failed' })
  }
  const now = nowSeconds()
  const properties = { mv: body.mv ?? null, title: parsed.data.title ?? '', prompt: parsed.data.prompt ?? parsed.data.gpt_description_prompt ?? '', tags: parsed.data.tags ?? '' }
  const row = await c.env.DB.prepare(
    `INSERT INTO tasks (task_id, platform, user_id, channel_id, quota, action, status, submit_time, progress, properties, token_id, created_at, updated_at, plan_charge)
     VALUES (?, 'suno', ?, ?, ?, ?, 'NOT_START', ?, '0%', ?, ?, ?, ?, ?) RETURNING id`
  )
    .bind(answer.data.slice(0, 64), auth.userId, channel.id, charge.quota, action, now, JSON.stringify(properties), auth.id, now, now, charge.planCharge())
    .first<{ id: number }>()
  await charge.settle(String(row!.id), { action, task_id: row!.id })
  c.executionCtx.waitUntil(
    trackTasks(c.env, channel.id, 'suno', [row!.id]).catch((err) => c.var.log.error('task not queued for polling', { platform: 'suno', task_id: row!.id, error: err }))
  )
  return c.json({ code: 'success', message: '', data: String(row!.id) })
}

export function createSunoApp() {
  const app = new Hono<HonoEnv>()
  app.use(
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 1 MB)', { code: 'invalid_request' })
      },
    })
  )
  app.post('/submit/:action', submit)
  app.get('/fetch/:id', async (c) => {
    const auth = await admit(c)
    const row = await ownSunoTask(c.env, auth.userId, c.req.param('id'))
    if (!row) throw new ApiError(404, 'Task not found.', { code: 'task_not_exist' })
    const [fresh] = await refreshed(c, [row])
    return c.json({ code: 'success', message: '', data: sunoDto(fresh!) })
  })
  app.post('/fetch', async (c) => {
    const auth = await admit(c)
    const parsed = FetchBody.safeParse(await c.req.json().catch(() => null))
    if (!parsed.success) throw new ApiError(400, 'The body must be {"ids": [up to 100 task ids]}.', { code: 'invalid_request' })
    const ids = [...new Set(parsed.data.ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number))]
    if (ids.length === 0) return c.json({ code: 'success', message: '', data: [] })
    const { results } = await c.env.DB.prepare(`SELECT * FROM tasks WHERE platform = 'suno' AND user_id = ? AND id IN (${ids.map(() => '?').join(',')}) ORDER BY id`)
      .bind(auth.userId, ...ids)
      .all<TaskRow>()
    return c.json({ code: 'success', message: '', data: (await refreshed(c, results)).map(sunoDto) })
  })
  app.all('*', () => {
    throw new ApiError(404, 'No such Suno route.', { code: 'not_found' })
  })
  app.onError(errorHandler((e, c) => c.json({ code: e.code ?? e.type, message: e.message, data: null }, e.status), ownFailuresLogged))
  return app
}
