/**
 * Midjourney tasks in D1 (`midjourneys`): the row ↔ midjourney-proxy DTO mapping (clients see the
 * gateway's row id, never the upstream id), talking to the upstream's task routes, and applying an
 * upstream update. The one transition to "finished" is a conditional UPDATE, so only the caller
 * that makes it refunds a FAILURE (and the refund itself is idempotent per task).
 */
import type { RoutedChannel } from '../../channels/types'
import { type BatchedPoll, pollPerChannel } from '../batched-poll'
import { settleTaskUpdate } from '../task-charge'

export const MJ_CHANNEL_TYPE = 34
export const MJ_TIMEOUT_MS = 60 * 60 * 1000
export const MJ_TIMEOUT_REASON = 'The upstream task timed out (over 1 hour)'

export interface MjRow {
  id: number
  code: number
  user_id: number
  action: string
  mj_id: string
  prompt: string
  prompt_en: string
  description: string
  state: string
  submit_time: number
  start_time: number
  finish_time: number
  image_url: string
  status: string
  progress: string
  fail_reason: string
  channel_id: number
  quota: number
  buttons: string
  properties: string
  mode: string
  token_id: number
  /** What the submit drew from when a subscription covered it (task-charge.ts TaskPlanCharge, JSON); '' = the balance. */
  plan_charge: string
  /** SHA-256 (hex) of the secret in the gateway's notify URL ('' when none was given). */
  notify_secret: string
  /** The client's own notifyHook ('' when none, or forwarding is off). */
  notify_hook: string
}

/** The midjourney-proxy task DTO as the upstream sends it (fields we read). */
export interface MjUpstreamTask {
  id?: string
  action?: string
  prompt?: string
  promptEn?: string
  description?: string
  state?: string
  submitTime?: number
  startTime?: number
  finishTime?: number
  imageUrl?: string
  status?: string
  progress?: string
  failReason?: string
  buttons?: unknown
  properties?: unknown
}

const parse = (text: string, fallback: unknown) => {
  if (!text) return fallback
  try {
    return JSON.parse(text)
  } catch {
    return fallback
  }
}

/** The DTO a client receives: the gateway's id in `id` (the upstream id stays on the server). */
export function mjDto(row: MjRow) {
  return {
    id: String(row.id),
    action: row.action,
    customId: '',
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl: row.image_url,
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parse(row.buttons, []),
    properties: parse(row.properties, {}),
    mode: row.mode,
  }
}

export const isFinished = (row: Pick<MjRow, 'progress'>) => row.progress === '100%'

export async function ownMjTask(env: Env, userId: number, id: string): Promise<MjRow | null> {
  if (!/^\d{1,15}$/.test(id)) return null
  return env.DB.prepare('SELECT * FROM midjourneys WHERE id = ? AND user_id = ?').bind(Number(id), userId).first<MjRow>()
}

export function mjHeaders(channel: Pick<RoutedChannel, 'key' | 'headers'>): Headers {
  return new Headers({ ...channel.headers, 'content-type': 'application/json', 'mj-api-secret': channel.key })
}

const base = (channel: Pick<RoutedChannel, 'baseUrl'>) => channel.baseUrl.replace(/\/+$/, '')

/** Ask the upstream for several tasks at once (`list-by-condition`), 5 s timeout. */
export async function fetchMjUpstream(channel: RoutedChannel, mjIds: string[]): Promise<MjUpstreamTask[]> {
  const res = await fetch(`${base(channel)}/mj/task/list-by-condition`, {
    method: 'POST',
    headers: mjHeaders(channel),
    body: JSON.stringify({ ids: mjIds }),
    signal: AbortSignal.timeout(5000),
  })
  if (!res.ok) throw new Error(`list-by-condition answered ${res.status}`)
  const body = await res.json()
  return Array.isArray(body) ? (body as MjUpstreamTask[]) : []
}

const str = (v: unknown, max = 10_000) => (typeof v === 'string' ? v.slice(0, max) : undefined)
const ms = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined)

/** Rows applyMjUpdate wrote itself (the object it returned), as opposed to rows it only read back. */
const written = new WeakSet<MjRow>()

/**
 * Whether `row` (as applyMjUpdate returned it) is a change that call wrote: the one writer of a
 * change forwards it to the client's hook, so a notify callback and the queue racing on the same
 * change do not both send it.
 */
export const wroteUpdate = (row: MjRow) => written.has(row)

/**
 * Apply an upstream DTO (or a forced failure) to a row. Returns the updated row. A FAILURE that
 * this call finishes is refunded; a row already finished is never changed again. The write
 * applies only to the row as this call read it (same status and progress): of two callers racing
 * with the same change one writes, the other gets the row as it now is.
 */
export async function applyMjUpdate(env: Env, row: MjRow, up: MjUpstreamTask | { forceFailure: string }): Promise<MjRow> {
  if (isFinished(row)) return row
  const next: MjRow = { ...row }
  if ('forceFailure' in up) {
    next.status = 'FAILURE'
    next.fail_reason = up.forceFailure
    next.finish_time = Date.now()
  } else {
    next.prompt_en = str(up.promptEn) ?? next.prompt_en
    next.description = str(up.description) ?? next.description
    next.state = str(up.state, 1000) ?? next.state
    next.start_time = ms(up.startTime) || next.start_time
    next.finish_time = ms(up.finishTime) || next.finish_time
    next.image_url = str(up.imageUrl, 2000) ?? next.image_url
    next.status = str(up.status, 20) ?? next.status
    next.progress = str(up.progress, 30) ?? next.progress
    next.fail_reason = str(up.failReason, 1000) ?? next.fail_reason
    if (up.buttons !== undefined) next.buttons = JSON.stringify(up.buttons ?? []).slice(0, 20_000)
    if (up.properties !== undefined) next.properties = JSON.stringify(up.properties ?? {}).slice(0, 20_000)
  }
  const failed = next.status === 'FAILURE' || (next.fail_reason !== '' && next.progress !== '100%')
  if (failed) {
    next.status = 'FAILURE'
    next.progress = '100%'
    if (!next.finish_time) next.finish_time = Date.now()
  }
  if (next.status === 'SUCCESS') next.progress = '100%'
  const changed = (Object.keys(next) as (keyof MjRow)[]).some((k) => next[k] !== row[k])
  if (!changed) return row
  const result = await env.DB.prepare(
    `UPDATE midjourneys SET prompt_en = ?, description = ?, state = ?, start_time = ?, finish_time = ?, image_url = ?, status = ?,
       progress = ?, fail_reason = ?, buttons = ?, properties = ? WHERE id = ? AND progress != '100%' AND progress = ? AND status = ?`
  )
    .bind(
      next.prompt_en,
      next.description,
      next.state,
      next.start_time,
      next.finish_time,
      next.image_url,
      next.status,
      next.progress,
      next.fail_reason,
      next.buttons,
      next.properties,
      row.id,
      row.progress,
      row.status
    )
    .run()
  if (result.meta.changes !== 1) {
    return (await env.DB.prepare('SELECT * FROM midjourneys WHERE id = ?').bind(row.id).first<MjRow>()) ?? row
  }
  await settleTaskUpdate(env, {
    platform: 'mj',
    label: `Midjourney ${row.action}`,
    upstreamId: row.mj_id,
    row,
    status: next.status,
    progress: next.progress,
    failReason: next.fail_reason,
    failed,
  })
  written.add(next)
  return next
}

/**
 * Bring unfinished rows up to date from their channels (batched per channel), failing the ones
 * past the 1 h timeout or whose channel is gone. Used by the client's fetch and by the cron sweep.
 */
const mjPoll = (env: Env): BatchedPoll<MjRow, MjUpstreamTask> => ({
  label: 'mj',
  upstreamId: (row) => row.mj_id,
  fetch: fetchMjUpstream,
  answerId: (answer) => answer.id,
  apply: (row, answer) => applyMjUpdate(env, row, answer),
})

export async function refreshMjTasks(env: Env, rows: MjRow[], channels: Record<number, RoutedChannel>): Promise<MjRow[]> {
  const out = new Map(rows.map((r) => [r.id, r]))
  const byChannel = new Map<number, MjRow[]>()
  for (const row of rows) {
    if (isFinished(row)) continue
    if (Date.now() - row.submit_time > MJ_TIMEOUT_MS) {
      out.set(row.id, await applyMjUpdate(env, row, { forceFailure: MJ_TIMEOUT_REASON }))
      continue
    }
    if (!row.mj_id) {
      out.set(row.id, await applyMjUpdate(env, row, { forceFailure: 'The upstream gave no task id' }))
      continue
    }
    const list = byChannel.get(row.channel_id) ?? []
    list.push(row)
    byChannel.set(row.channel_id, list)
  }
  await pollPerChannel(byChannel, channels, mjPoll(env), out)
  return rows.map((r) => out.get(r.id) ?? r)
}
