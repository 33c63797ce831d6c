/**
 * midjourney-proxy's notify callback. At submit the gateway gives the upstream its own hook,
 * `<public base>/mj/notify/<gateway task id>?secret=<random>`, and keeps only the secret's SHA-256
 * with the task (the client's own notifyHook is kept aside). A callback with the right secret
 * (constant-time check) is applied at once through applyMjUpdate — the poller's code path, so a
 * FAILURE is refunded exactly once whoever sees it first — and, when MjNotifyEnabled is on and the
 * client gave a hook, the updated task (with proxied image links) is forwarded there in the
 * background through the SSRF guard with a short timeout (client-hook.ts).
 */
import type { Context } from 'hono'
import { z } from 'zod'
import type { HonoEnv } from '../../env'
import { ApiError } from '../../lib/errors'
import { randomString, safeEqual, sha256Hex } from '../../lib/crypto'
import { siteBaseUrl } from '../../settings/site-url'
import { getSettings, type Settings } from '../../settings/store'
import { imageRewriter } from '../task-images'
import { postToClientHook } from '../client-hook'
import { applyMjUpdate, mjDto, wroteUpdate, type MjRow, type MjUpstreamTask } from './mj-store'

export interface NotifySecret {
  /** Goes into the hook handed to the upstream, never stored. */
  secret: string
  /** What the row keeps: the secret's SHA-256 (hex). */
  hash: string
}

export async function newNotifySecret(): Promise<NotifySecret> {
  const secret = randomString(32)
  return { secret, hash: await sha256Hex(secret) }
}

export const notifyUrl = (base: string, taskId: number, secret: string) => `${base}/mj/notify/${taskId}?secret=${secret}`

/** The fields of the DTO a callback may carry (anything else is ignored). */
const NotifyBody = z
  .object({
    id: z.string().max(64),
    promptEn: z.string().optional(),
    description: z.string().optional(),
    state: z.string().optional(),
    startTime: z.number().optional(),
    finishTime: z.number().optional(),
    imageUrl: z.string().optional(),
    status: z.string().optional(),
    progress: z.string().optional(),
    failReason: z.string().nullable().optional(),
    buttons: z.array(z.unknown()).optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough()

/** The updated task as the client's hook receives it (the gateway's id, proxied image link). */
export async function clientPayload(env: Env, settings: Settings, base: string, row: MjRow) {
  const dto = mjDto(row)
  dto.imageUrl = await (await imageRewriter(env, settings, base))(row.id, dto.imageUrl)
  return dto
}

/** POST /mj/notify/:id?secret=…: the upstream's callback. */
export async function handleMjNotify(c: Context<HonoEnv>): Promise<Response> {
  const id = c.req.param('id') ?? ''
  const secret = c.req.query('secret') ?? ''
  const row = /^\d{1,15}$/.test(id) ? await c.env.DB.prepare('SELECT * FROM midjourneys WHERE id = ?').bind(Number(id)).first<MjRow>() : null
  // One answer for an unknown task and a wrong secret: the route tells nothing about which ids exist.
  const expected = row?.notify_secret ?? ''
  const given = secret ? await sha256Hex(secret) : ''
  if (!row || !expected || !safeEqual(given, expected)) throw new ApiError(403, 'Invalid notify secret.')
  const parsed = NotifyBody.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) throw new ApiError(400, 'The body must be a midjourney-proxy task.')
  if (parsed.data.id !== row.mj_id) throw new ApiError(400, 'The task id does not match this hook.')
  const update: MjUpstreamTask = { ...parsed.data, failReason: parsed.data.failReason ?? undefined }
  const next = await applyMjUpdate(c.env, row, update)
  if (wroteUpdate(next) && row.notify_hook) {
    const settings = await getSettings(c.env, c.executionCtx)
    if (settings.bool('MjNotifyEnabled')) {
      const payload = await clientPayload(c.env, settings, siteBaseUrl(c, settings), next)
      c.executionCtx.waitUntil(postToClientHook(c.env, row.notify_hook, payload, `mj task ${row.id}`))
    }
  }
  return c.json({ code: 1, description: 'ok', result: String(row.id) })
}
