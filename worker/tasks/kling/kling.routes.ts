/**
 * Kling's video API under /kling (channel type 53): `POST /kling/v1/videos/{text2video,image2video}`
 * priced per call as `kling-video_<model_name>_<mode>_<duration>` (reserve → settle on `code: 0`,
 * refund otherwise), and `GET /kling/v1/videos/{action}/{id}` for own tasks (refreshed from the
 * upstream on the way; the answer is Kling's last reply with the gateway's task id). The client's
 * `callback_url` is not passed on: the gateway polls (TaskQueue) and calls it itself with each
 * change, through the users' URL guard (client-hook.ts, kling-store.ts). Errors answer
 * `{code, message, request_id, data:null}` with real HTTP statuses.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { ApiError } from '../../lib/errors'
import { errorHandler, ownFailuresLogged } from '../../lib/error-handler'
import { clientHookProblem } from '../client-hook'
import { nowSeconds } from '../../lib/time'
import type { HonoEnv } from '../../env'
import { getRoutingTable } from '../../channels/routing-table'
import { admit } from '../../access/admit'
import { pickTaskChannel, TaskCharge } from '../task-charge'
import { trackTasks } from '../task-queue'
import { refreshKlingTasks, KLING_ACTIONS, KLING_CHANNEL_TYPE, klingBase, klingDto, klingHeaders, ownKlingTask, type KlingAction, type KlingAnswer } from './kling-store'

const image = z
  .string()
  .min(1)
  .max(10 * 1024 * 1024)
export const KlingBody = z
  .object({
    prompt: z.string().max(2500).optional(),
    negative_prompt: z.string().max(2500).optional(),
    model_name: z
      .string()
      .regex(/^[\w.-]{1,64}$/)
      .default('kling-v1'),
    mode: z.enum(['std', 'pro']).default('std'),
    duration: z.enum(['5', '10']).default('5'),
    aspect_ratio: z.string().max(20).optional(),
    cfg_scale: z.number().min(0).max(1).optional(),
    image: image.optional(),
    image_tail: image.optional(),
    static_mask: image.optional(),
    dynamic_masks: z.array(z.unknown()).max(10).optional(),
    camera_control: z.record(z.string(), z.unknown()).optional(),
    callback_url: z.string().max(2000).optional(),
    external_task_id: z.string().max(64).optional(),
  })
  .passthrough()

const actionOf = (c: Context<HonoEnv>): KlingAction => {
  const action = c.req.param('action')
  if (!(KLING_ACTIONS as readonly string[]).includes(action ?? '')) throw new ApiError(404, 'The action must be text2video or image2video.', { code: 'not_found' })
  return action as KlingAction
}

async function submit(c: Context<HonoEnv>): Promise<Response> {
  const action = actionOf(c)
  const auth = await admit(c)
  const parsed = KlingBody.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) throw new ApiError(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), { code: 'invalid_request' })
  const body: Record<string, unknown> = { ...parsed.data }
  delete body.callback_url
  const callback = parsed.data.callback_url ?? ''
  const hookProblem = callback ? clientHookProblem(callback) : undefined
  if (hookProblem) throw new ApiError(400, `callback_url ${hookProblem}.`, { code: 'invalid_request' })
  if (action === 'image2video' && !parsed.data.image) throw new ApiError(400, 'image2video needs an image.', { code: 'invalid_request' })
  if (action === 'text2video' && !parsed.data.prompt) throw new ApiError(400, 'text2video needs a prompt.', { code: 'invalid_request' })
  const model = `kling-video_${parsed.data.model_name}_${parsed.data.mode}_${parsed.data.duration}`
  const pick = pickTaskChannel(await getRoutingTable(c.env, c.executionCtx), auth, KLING_CHANNEL_TYPE, model)
  const { channel } = pick
  const charge = new TaskCharge(c, auth, model, pick)
  await charge.reserve()

  let res: Response
  let answer: KlingAnswer
  try {
    res = await fetch(`${klingBase(channel)}/v1/videos/${action}`, {
      method: 'POST',
      headers: await klingHeaders(channel),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    })
    answer = (await res.json()) as KlingAnswer
    if (!answer || typeof answer !== 'object') throw new Error('the answer is not a JSON object')
  } catch (err) {
    await charge.refund(`Kling upstream failed: ${(err as Error).message}`)
    throw new ApiError(502, 'The Kling upstream could not be reached or answered garbage.', { code: 'submit_failed' })
  }
  const taskId = answer.data?.task_id
  if (!res.ok || answer.code !== 0 || typeof taskId !== 'string' || !taskId) {
    const message = String(answer.message ?? '').slice(0, 500) || `HTTP ${res.status}`
    await charge.refund(`Kling refused the task: code ${answer.code}: ${message}`, { upstream_code: answer.code ?? null, upstream_status: res.status })
    throw new ApiError(res.status === 400 ? 400 : res.status === 429 ? 429 : 502, `The Kling upstream refused the task: ${message}`, { code: 'submit_failed' })
  }
  const now = nowSeconds()
  const properties = { model_name: parsed.data.model_name, mode: parsed.data.mode, duration: parsed.data.duration, prompt: parsed.data.prompt ?? '' }
  const row = await c.env.DB.prepare(
    `INSERT INTO tasks (task_id, platform, user_id, channel_id, quota, action, status, submit_time, progress, properties, data, notify_hook, token_id, created_at, updated_at, plan_charge)
     VALUES (?, 'kling', ?, ?, ?, ?, 'SUBMITTED', ?, '0%', ?, ?, ?, ?, ?, ?, ?) RETURNING id`
  )
    .bind(
      taskId.slice(0, 64),
      auth.userId,
      channel.id,
      charge.quota,
      action,
      now,
      JSON.stringify(properties),
      JSON.stringify(answer).slice(0, 200_000),
      callback,
      auth.id,
      now,
      now,
      charge.planCharge()
    )
    .first<{ id: number }>()
  await charge.settle(String(row!.id), { action, task_id: row!.id })
  c.executionCtx.waitUntil(
    trackTasks(c.env, channel.id, 'kling', [row!.id]).catch((err) => c.var.log.error('task not queued for polling', { platform: 'kling', task_id: row!.id, error: err }))
  )
  return c.json({ ...answer, data: { ...answer.data, task_id: String(row!.id) } })
}

export function createKlingApp() {
  const app = new Hono<HonoEnv>()
  app.use(
    bodyLimit({
      maxSize: 32 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 32 MB)', { code: 'invalid_request' })
      },
    })
  )
  app.post('/v1/videos/:action', submit)
  app.get('/v1/videos/:action/:id', async (c) => {
    const action = actionOf(c)
    const auth = await admit(c)
    const row = await ownKlingTask(c.env, auth.userId, action, c.req.param('id'))
    if (!row) throw new ApiError(404, 'Task not found.', { code: 'task_not_exist' })
    const [fresh] = row.progress === '100%' ? [row] : await refreshKlingTasks(c.env, [row], (await getRoutingTable(c.env, c.executionCtx)).channels, c.executionCtx)
    return c.json(klingDto(fresh!))
  })
  app.all('*', () => {
    throw new ApiError(404, 'No such Kling route.', { code: 'not_found' })
  })
  app.onError(errorHandler((e, c) => c.json({ code: e.code ?? e.type, message: e.message, request_id: c.get('requestId'), data: null }, e.status), ownFailuresLogged))
  return app
}
