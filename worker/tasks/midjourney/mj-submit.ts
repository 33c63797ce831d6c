/**
 * A Midjourney submit, in order: validate the route's body (zod), work out the action (from the
 * route, `action`, the simple-change content or the button's customId), resolve the origin task
 * for follow-up actions (own tasks only; pinned to its channel and mode), price the action as
 * `mj_[<mode>_]<action>`, reserve, hold the task's row, forward to the midjourney-proxy with the
 * upstream ids and the gateway's own notify hook (mj-notify.ts), then settle (codes 1/21/22) and
 * fill the row, or refund and drop it (anything else), and answer with the gateway id. A fast-mode
 * new task refused with code 3 (no fast hours left) is sent once more in relax mode, at the relax
 * price, when MjFastFallbackRelax is on. Accepted tasks join their channel's poll queue.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { ApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { getRoutingTable } from '../../channels/routing-table'
import type { RelayAuth } from '../../access/token-auth'
import { siteBaseUrl } from '../../settings/site-url'
import { getSettings } from '../../settings/store'
import { pickTaskChannel, TaskCharge } from '../task-charge'
import { trackTasks } from '../task-queue'
import { isFinished, MJ_CHANNEL_TYPE, mjHeaders, ownMjTask, refreshMjTasks, type MjRow } from './mj-store'
import { newNotifySecret, notifyUrl } from './mj-notify'
import { clientHookProblem } from '../client-hook'

export type MjMode = 'fast' | 'turbo' | 'relax'
export type MjRoute = 'imagine' | 'change' | 'simple-change' | 'describe' | 'blend' | 'shorten' | 'action' | 'modal' | 'upload-discord-images' | 'swap'

const id = z.string().trim().min(1).max(64)
const b64 = z
  .string()
  .min(1)
  .max(16 * 1024 * 1024)
const prompt = z.string().max(8192)
const common = { state: z.string().max(1000).optional(), notifyHook: z.string().max(2000).optional(), botType: z.string().max(40).optional() }
export const MJ_BODIES: Record<MjRoute, z.ZodTypeAny> = {
  imagine: z.object({ ...common, prompt: prompt.min(1), base64Array: z.array(b64).max(5).optional() }).passthrough(),
  change: z.object({ ...common, taskId: id, action: z.enum(['UPSCALE', 'VARIATION', 'REROLL']), index: z.number().int().min(1).max(4) }).passthrough(),
  'simple-change': z
    .object({
      ...common,
      content: z
        .string()
        .trim()
        .regex(/^\S{1,64} (?:[UV][1-4]|R)$/, 'content must look like "<taskId> U1..U4|V1..V4|R"'),
    })
    .passthrough(),
  describe: z.object({ ...common, base64: b64 }).passthrough(),
  blend: z.object({ ...common, base64Array: z.array(b64).min(2).max(5), dimensions: z.enum(['PORTRAIT', 'SQUARE', 'LANDSCAPE']).optional() }).passthrough(),
  shorten: z.object({ ...common, prompt: prompt.min(1) }).passthrough(),
  action: z.object({ ...common, taskId: id, customId: z.string().min(1).max(300) }).passthrough(),
  modal: z.object({ ...common, taskId: id, prompt: prompt.optional(), maskBase64: b64.optional() }).passthrough(),
  'upload-discord-images': z.object({ base64Array: z.array(b64).min(1).max(5) }).passthrough(),
  swap: z.object({ ...common, sourceBase64: b64, targetBase64: b64 }).passthrough(),
}

const FIXED: Partial<Record<MjRoute, string>> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  'upload-discord-images': 'UPLOAD',
  swap: 'SWAP_FACE',
}
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
/** midjourney-proxy's "no account available" (in fast mode: the fast hours are used up). */
const NO_ACCOUNT = 3

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

/**
 * Mode flags in a prompt would override the mode the route priced. Midjourney reads them after two
 * hyphens or after a typographic dash (an em dash `—` is what `--` becomes under autocorrect), so
 * every dash form is stripped: a run of dashes that is two or more long or holds any non-ASCII
 * dash (hyphen, en/em dash, horizontal bar, minus sign, their small and full-width forms), wherever
 * it stands and whatever the case, with the spaces before it.
 */
const LONG_DASHES = '\u2010-\u2015\u2212\uFE58\uFE63\uFF0D'
const MODE_FLAGS = new RegExp(`\\s*(?:-[-${LONG_DASHES}]|[${LONG_DASHES}])[-${LONG_DASHES}]*(?:fast|relax|turbo)\\b`, 'gi')

const GLUED = new RegExp(`[\\p{L}\\p{N}${LONG_DASHES}-]`, 'u')

/** The prompt without mode flags; a flag glued to a word or flag after it (`a--fast--ar 2:3`) leaves a space. */
export const stripModeFlags = (prompt: string) => prompt.replace(MODE_FLAGS, (flag, at: number) => (GLUED.test(prompt[at + flag.length] ?? '') ? ' ' : '')).trim()

function upstreamBody(route: MjRoute, body: Record<string, any>, mode: MjMode, origin: MjRow | null, hook: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, accountFilter: { ...(body.accountFilter ?? {}), modes: [mode.toUpperCase()] } }
  delete out.notifyHook
  if (hook) out.notifyHook = hook
  if (typeof out.prompt === 'string') out.prompt = stripModeFlags(out.prompt)
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
  const settings = await getSettings(c.env, c.executionCtx)
  // The client's hook is only kept (and checked) when forwarding is on; otherwise it is dropped, as one-hub does.
  const clientHook = typeof body.notifyHook === 'string' && body.notifyHook && settings.bool('MjNotifyEnabled') ? body.notifyHook : ''
  const hookProblem = clientHook ? clientHookProblem(clientHook) : undefined
  if (hookProblem) throw new ApiError(400, `notifyHook: ${hookProblem}`)

  const originId = route === 'simple-change' ? String(body.content).split(' ')[0]! : typeof body.taskId === 'string' ? body.taskId : undefined
  const table = await getRoutingTable(c.env, c.executionCtx)
  let origin = originId ? await ownMjTask(c.env, auth.userId, originId) : null
  if (originId && !origin) throw new ApiError(404, `Task ${originId} does not exist.`)
  // The client may act on a task it has not fetched since it finished: bring it up to date first.
  if (origin && !isFinished(origin)) origin = (await refreshMjTasks(c.env, [origin], table.channels))[0]!
  if (origin && route !== 'modal' && origin.status !== 'SUCCESS') throw new ApiError(400, `Task ${originId} has not succeeded (status ${origin.status || 'unknown'}).`)
  const mode: MjMode = origin ? (origin.mode as MjMode) || 'fast' : requestedMode

  const first = await attempt(mode)
  if ('refused' in first && first.code === NO_ACCOUNT && first.status === 200 && mode === 'fast' && !origin && action !== 'UPLOAD' && settings.bool('MjFastFallbackRelax')) {
    // Fast hours used up: once more in relax mode (relax price); if relax cannot even be tried, the first refusal stands.
    const second = await attempt('relax').catch((err) => (err instanceof ApiError && err.status !== 502 ? undefined : Promise.reject(err)))
    if (second) return answer(second)
  }
  return answer(first)

  function answer(result: Attempt): Response {
    if ('refused' in result) {
      if (result.status !== 200) throw new ApiError(result.status === 429 ? 429 : 502, `The Midjourney upstream answered HTTP ${result.status}.`, { code: 'upstream_error' })
      return c.json({ code: result.body.code, description: result.body.description ?? '', result: null, properties: result.body.properties ?? {} })
    }
    return c.json(result.body)
  }

  /** One submit in `tryMode`: reserve, hold the row, send, then settle and fill the row or refund and drop it. */
  async function attempt(tryMode: MjMode): Promise<Attempt> {
    const model = priceName(tryMode, action)
    const pick = pickTaskChannel(table, auth, MJ_CHANNEL_TYPE, model, origin?.channel_id)
    const { channel } = pick
    const charge = new TaskCharge(c, auth, model, pick)
    await charge.reserve({ free: FREE_ACTIONS.has(action), counted: tryMode !== mode })
    const notify = action === 'UPLOAD' ? undefined : await newNotifySecret()
    const rowId = await holdRow(charge, channel.id, tryMode, notify?.hash ?? '')

    const path = route === 'swap' ? '/mj/insight-face/swap' : `/mj/submit/${route}`
    let res: Response
    let answer: Record<string, any>
    try {
      res = await fetch(`${channel.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: mjHeaders(channel),
        body: JSON.stringify(upstreamBody(route, body, tryMode, origin, notify && notifyUrl(siteBaseUrl(c, settings), rowId, notify.secret))),
        signal: AbortSignal.timeout(60_000),
      })
      answer = await res.json()
      if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('the answer is not a JSON object')
    } catch (err) {
      await dropRow(rowId)
      await charge.refund(`Midjourney upstream failed: ${(err as Error).message}`)
      throw new ApiError(502, 'The Midjourney upstream could not be reached or answered garbage.', { code: 'upstream_error' })
    }
    const code = Number(answer.code)
    if (res.status !== 200 || !ACCEPTED.has(code)) {
      await dropRow(rowId)
      await charge.refund(`Midjourney refused the task: HTTP ${res.status}, code ${answer.code}: ${String(answer.description ?? '')}`, {
        upstream_code: answer.code,
        mode: tryMode,
      })
      return { refused: true, status: res.status, code, body: answer }
    }

    const props = (answer.properties ?? {}) as Record<string, any>
    const done = action === 'UPLOAD' || (code === 21 && props.status === 'SUCCESS')
    await fillRow(rowId, charge, code, answer, done, props)
    await charge.settle(String(rowId), { action, mode: tryMode, upstream_code: code, task_id: rowId })
    if (!done)
      c.executionCtx.waitUntil(
        trackTasks(c.env, channel.id, 'mj', [rowId], siteBaseUrl(c, settings)).catch((err) =>
          c.var.log.error('task not queued for polling', { platform: 'mj', task_id: rowId, error: err })
        )
      )
    if (action === 'UPLOAD') return { body: answer }
    const rewritten = code === 22 || (code === 21 && done && !FREE_ACTIONS.has(action)) ? 1 : code
    return { body: { ...answer, code: rewritten, result: String(rowId) } }
  }

  /**
   * The task's row, written before the upstream is asked so its id can go into the notify hook.
   * It starts "finished" at no charge, so no poller touches it until fillRow opens it.
   */
  async function holdRow(charge: TaskCharge, channelId: number, tryMode: MjMode, secretHash: string): Promise<number> {
    try {
      const inserted = await c.env.DB.prepare(
        `INSERT INTO midjourneys (user_id, action, prompt, state, submit_time, status, progress, channel_id, quota, mode, token_id, notify_hook, notify_secret)
         VALUES (?, ?, ?, ?, ?, 'NOT_START', '100%', ?, 0, ?, ?, ?, ?) RETURNING id`
      )
        .bind(
          auth.userId,
          action,
          String(body.prompt ?? origin?.prompt ?? '').slice(0, 8192),
          String(body.state ?? '').slice(0, 1000),
          Date.now(),
          channelId,
          tryMode,
          auth.id,
          clientHook.slice(0, 2000),
          secretHash
        )
        .first<{ id: number }>()
      if (!inserted) throw new Error('no row id returned')
      return inserted.id
    } catch (err) {
      await charge.refund(`Midjourney task not stored: ${(err as Error).message}`)
      throw new ApiError(500, 'The gateway could not store the task.', { cause: err })
    }
  }

  async function dropRow(rowId: number): Promise<void> {
    await c.env.DB.prepare("DELETE FROM midjourneys WHERE id = ? AND mj_id = ''")
      .bind(rowId)
      .run()
      .catch((err) => c.var.log.error('refused task row not dropped', { platform: 'mj', task_id: rowId, error: err }))
  }

  /** Open the held row with the upstream's answer; when it cannot be written the hold is released. */
  async function fillRow(rowId: number, charge: TaskCharge, code: number, answer: Record<string, any>, done: boolean, props: Record<string, any>): Promise<void> {
    try {
      await c.env.DB.prepare('UPDATE midjourneys SET code = ?, mj_id = ?, description = ?, image_url = ?, status = ?, progress = ?, quota = ?, plan_charge = ? WHERE id = ?')
        .bind(
          code,
          action === 'UPLOAD' ? '' : String(answer.result ?? '').slice(0, 64),
          String(answer.description ?? '').slice(0, 1000),
          done && typeof props.imageUrl === 'string' ? props.imageUrl.slice(0, 2000) : '',
          done ? 'SUCCESS' : 'SUBMITTED',
          done ? '100%' : '0%',
          charge.quota,
          charge.planCharge(),
          rowId
        )
        .run()
    } catch (err) {
      await dropRow(rowId)
      await charge.refund(`Midjourney task accepted upstream but not stored: ${(err as Error).message}`)
      throw new ApiError(500, 'The gateway could not store the task.', { cause: err })
    }
  }
}

type Attempt = { refused: true; status: number; code: number; body: Record<string, any> } | { body: Record<string, unknown> }
