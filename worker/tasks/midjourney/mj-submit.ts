/**
 * A Midjourney submit, in order: validate the route's body (zod), work out the action (from the
 * route, `action`, the simple-change content or the button's customId), resolve the origin task
 * for follow-up actions (own tasks only; pinned to its channel and mode), price the action as
 * `mj_[<mode>_]<action>`, reserve, forward to the midjourney-proxy with the upstream ids, then
 * settle (codes 1/21/22) or refund (anything else), store the row and answer with the gateway id.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { ApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { getRoutingTable } from '../../relay/routing-table'
import type { RelayAuth } from '../../relay/token-auth'
import { pickTaskChannel, TaskCharge } from '../task-charge'
import { isFinished, MJ_CHANNEL_TYPE, mjHeaders, ownMjTask, refreshMjTasks, type MjRow } from './mj-store'

export type MjMode = 'fast' | 'turbo' | 'relax'
export type MjRoute = 'imagine' | 'change' | 'simple-change' | 'describe' | 'blend' | 'shorten' | 'action' | 'modal' | 'upload-discord-images' | 'swap'

const id = z.string().trim().min(1).max(64)
const b64 = z.string().min(1).max(16 * 1024 * 1024)
const prompt = z.string().max(8192)
const common = { state: z.string().max(1000).optional(), notifyHook: z.string().max(2000).optional(), botType: z.string().max(40).optional() }
export const MJ_BODIES: Record<MjRoute, z.ZodTypeAny> = {
  imagine: z.object({ ...common, prompt: prompt.min(1), base64Array: z.array(b64).max(5).optional() }).passthrough(),
  change: z.object({ ...common, taskId: id, action: z.enum(['UPSCALE', 'VARIATION', 'REROLL']), index: z.number().int().min(1).max(4) }).passthrough(),
  'simple-change': z.object({ ...common, content: z.string().trim().regex(/^\S{1,64} (?:[UV][1-4]|R)$/, 'content must look like "<taskId> U1..U4|V1..V4|R"') }).passthrough(),
  describe: z.object({ ...common, base64: b64 }).passthrough(),
  blend: z.object({ ...common, base64Array: z.array(b64).min(2).max(5), dimensions: z.enum(['PORTRAIT', 'SQUARE', 'LANDSCAPE']).optional() }).passthrough(),
  shorten: z.object({ ...common, prompt: prompt.min(1) }).passthrough(),
  action: z.object({ ...common, taskId: id, customId: z.string().min(1).max(300) }).passthrough(),
  modal: z.object({ ...common, taskId: id, prompt: prompt.optional(), maskBase64: b64.optional() }).passthrough(),
  'upload-discord-images': z.object({ base64Array: z.array(b64).min(1).max(5) }).passthrough(),
  swap: z.object({ ...common, sourceBase64: b64, targetBase64: b64 }).passthrough(),
}

const FIXED: Partial<Record<MjRoute, string>> = { imagine: 'IMAGINE', describe: 'DESCRIBE', blend: 'BLEND', shorten: 'SHORTEN', modal: 'MODAL', 'upload-discord-images': 'UPLOAD', swap: 'SWAP_FACE' }
/** Button customId fragments → action (checked in this order: `low_variation` before `variation`). */
const CUSTOM_IDS: [RegExp, string][] = [
  [/low_variation/i, 'LOW_VARIATION'],
  [/high_variation/i, 'HIGH_VARIATION'],
  [/upsample/i, 'UPSCALE'],
  [/variation/i, 'VARIATION'],
  [/pan/i, 'PAN'],
  [/reroll/i, 'REROLL'],
  [/CustomZoom/, 'CUSTOM_ZOOM'],
  [/Outpaint/, 'ZOOM'],
  [/Inpaint/, 'INPAINT'],
]
/** First steps of a modal flow: never charged (the MODAL submit that follows is). */
const FREE_ACTIONS = new Set(['INPAINT', 'CUSTOM_ZOOM'])
const ACCEPTED = new Set([1, 21, 22])

export function actionOf(route: MjRoute, body: Record<string, any>): string {
  if (route === 'change') return body.action
  if (route === 'simple-change') return ({ U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' } as const)[String(body.content).split(' ')[1]![0] as 'U' | 'V' | 'R']
  if (route === 'action') {
    const hit = CUSTOM_IDS.find(([re]) => re.test(body.customId))
    if (!hit) throw new ApiError(400, `Unknown button customId "${String(body.customId).slice(0, 80)}".`)
    return hit[1]
  }
  return FIXED[route]!
}

/** Price name of an action: mj_imagine, mj_turbo_upscale, mj_relax_variation… */
export const priceName = (mode: MjMode, action: string) => `mj_${mode === 'fast' ? '' : `${mode}_`}${action.toLowerCase()}`

const MODE_FLAGS = /\s--(?:fast|relax|turbo)\b/gi

function upstreamBody(route: MjRoute, body: Record<string, any>, mode: MjMode, origin: MjRow | null): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, accountFilter: { ...(body.accountFilter ?? {}), modes: [mode.toUpperCase()] } }
  delete out.notifyHook
  if (typeof out.prompt === 'string') out.prompt = out.prompt.replace(MODE_FLAGS, '').trim()
  if (origin && route === 'simple-change') out.content = `${origin.mj_id} ${String(body.content).split(' ')[1]}`
  else if (origin) out.taskId = origin.mj_id
  return out
}

export async function submitMj(c: Context<HonoEnv>, auth: RelayAuth, route: MjRoute, requestedMode: MjMode): Promise<Response> {
  const raw = await c.req.json().catch(() => {
    throw new ApiError(400, 'The request body must be JSON.')
  })
  const parsed = MJ_BODIES[route].safeParse(raw)
  if (!parsed.success) throw new ApiError(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '))
  const body = parsed.data as Record<string, any>
  const action = actionOf(route, body)

  const originId = route === 'simple-change' ? String(body.content).split(' ')[0]! : typeof body.taskId === 'string' ? body.taskId : undefined
  const table = await getRoutingTable(c.env, c.executionCtx)
  let origin = originId ? await ownMjTask(c.env, auth.userId, originId) : null
  if (originId && !origin) throw new ApiError(404, `Task ${originId} does not exist.`)
  // The client may act on a task it has not fetched since it finished: bring it up to date first.
  if (origin && !isFinished(origin)) origin = (await refreshMjTasks(c.env, [origin], table.channels))[0]!
  if (origin && route !== 'modal' && origin.status !== 'SUCCESS') throw new ApiError(400, `Task ${originId} has not succeeded (status ${origin.status || 'unknown'}).`)
  const mode: MjMode = origin ? ((origin.mode as MjMode) || 'fast') : requestedMode
  const model = priceName(mode, action)

  const channel = pickTaskChannel(table, auth, MJ_CHANNEL_TYPE, model, origin?.channel_id)
  const charge = new TaskCharge(c, auth, model, channel)
  await charge.reserve(FREE_ACTIONS.has(action))

  const path = route === 'swap' ? '/mj/insight-face/swap' : `/mj/submit/${route}`
  let res: Response
  let answer: Record<string, any>
  try {
    res = await fetch(`${channel.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: mjHeaders(channel),
      body: JSON.stringify(upstreamBody(route, body, mode, origin)),
      signal: AbortSignal.timeout(60_000),
    })
    answer = await res.json()
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('the answer is not a JSON object')
  } catch (err) {
    await charge.refund(`Midjourney upstream failed: ${(err as Error).message}`)
    throw new ApiError(502, 'The Midjourney upstream could not be reached or answered garbage.', { code: 'upstream_error' })
  }
  const code = Number(answer.code)
  if (res.status !== 200 || !ACCEPTED.has(code)) {
    await charge.refund(`Midjourney refused the task: HTTP ${res.status}, code ${answer.code}: ${String(answer.description ?? '')}`, { upstream_code: answer.code })
    if (res.status !== 200) throw new ApiError(res.status === 429 ? 429 : 502, `The Midjourney upstream answered HTTP ${res.status}.`, { code: 'upstream_error' })
    return c.json({ code: answer.code, description: answer.description ?? '', result: null, properties: answer.properties ?? {} })
  }

  const now = Date.now()
  const props = (answer.properties ?? {}) as Record<string, any>
  const done = action === 'UPLOAD' || (code === 21 && props.status === 'SUCCESS')
  const row = await insertRow()
  await charge.settle(String(row.id), { action, mode, upstream_code: code, task_id: row.id })
  if (action === 'UPLOAD') return c.json(answer)
  const rewritten = code === 22 || (code === 21 && done && !FREE_ACTIONS.has(action)) ? 1 : code
  return c.json({ ...answer, code: rewritten, result: String(row.id) })

  /** The task's row; when it cannot be written the hold is released rather than left to expire. */
  async function insertRow(): Promise<{ id: number }> {
    try {
      const inserted = await c.env.DB.prepare(
        `INSERT INTO midjourneys (code, user_id, action, mj_id, prompt, description, state, submit_time, image_url, status, progress, channel_id, quota, mode, token_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
      )
        .bind(
          code,
          auth.userId,
          action,
          action === 'UPLOAD' ? '' : String(answer.result ?? '').slice(0, 64),
          String(body.prompt ?? origin?.prompt ?? '').slice(0, 8192),
          String(answer.description ?? '').slice(0, 1000),
          String(body.state ?? '').slice(0, 1000),
          now,
          done && typeof props.imageUrl === 'string' ? props.imageUrl.slice(0, 2000) : '',
          done ? 'SUCCESS' : 'SUBMITTED',
          done ? '100%' : '0%',
          channel.id,
          charge.quota,
          mode,
          auth.id
        )
        .first<{ id: number }>()
      if (!inserted) throw new Error('no row id returned')
      return inserted
    } catch (err) {
      await charge.refund(`Midjourney task accepted upstream but not stored: ${(err as Error).message}`)
      throw new ApiError(500, 'The gateway could not store the task.', { cause: err })
    }
  }
}
