/**
 * Suno tasks in the generic `tasks` table (platform "suno"): the row ↔ TaskDto mapping (clients see
 * the gateway's row id in `task_id`; upstream `user_id` fragments are removed), the upstream's batch
 * fetch, and applying an update. Finishing is a conditional UPDATE, so a FAILURE is refunded once.
 */
import type { RoutedChannel } from '../../channels/types'
import { nowSeconds } from '../../lib/time'
import { type BatchedPoll, pollPerChannel } from '../batched-poll'
import { settleTaskUpdate } from '../task-charge'

export const SUNO_CHANNEL_TYPE = 41
export const SUNO_TIMEOUT_SECONDS = 60 * 60
export const SUNO_TIMEOUT_REASON = 'The upstream task timed out (over 1 hour)'

export interface TaskRow {
  id: number
  task_id: string
  platform: string
  user_id: number
  channel_id: number
  quota: number
  action: string
  status: string
  fail_reason: string
  submit_time: number
  start_time: number
  finish_time: number
  progress: string
  properties: string
  data: string
  notify_hook: string
  token_id: number
  created_at: number
  updated_at: number
  /** What the submit drew from when a subscription covered it (task-charge.ts TaskPlanCharge, JSON); '' = the balance. */
  plan_charge: string
}

export interface SunoUpstreamTask {
  task_id?: string
  action?: string
  status?: string
  fail_reason?: string
  submit_time?: number
  start_time?: number
  finish_time?: number
  progress?: string
  data?: unknown
}

/** Parse stored data without the upstream account's `user_id` fields (at any depth). */
export function scrubData(data: string): unknown {
  if (!data) return null
  try {
    return JSON.parse(data, (key, value) => (key === 'user_id' ? undefined : value))
  } catch {
    return null
  }
}

export function sunoDto(row: TaskRow) {
  return {
    task_id: String(row.id),
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: scrubData(row.data),
  }
}

export async function ownSunoTask(env: Env, userId: number, id: string): Promise<TaskRow | null> {
  if (!/^\d{1,15}$/.test(id)) return null
  return env.DB.prepare("SELECT * FROM tasks WHERE id = ? AND user_id = ? AND platform = 'suno'").bind(Number(id), userId).first<TaskRow>()
}

export const sunoHeaders = (channel: Pick<RoutedChannel, 'key' | 'headers'>) =>
  new Headers({ ...channel.headers, 'content-type': 'application/json', authorization: `Bearer ${channel.key}` })

export async function fetchSunoUpstream(channel: RoutedChannel, ids: string[]): Promise<SunoUpstreamTask[]> {
  const res = await fetch(`${channel.baseUrl.replace(/\/+$/, '')}/suno/fetch`, {
    method: 'POST',
    headers: sunoHeaders(channel),
    body: JSON.stringify({ ids }),
    signal: AbortSignal.timeout(5000),
  })
  if (!res.ok) throw new Error(`suno fetch answered ${res.status}`)
  const body = (await res.json()) as { code?: string; data?: unknown }
  return body?.code === 'success' && Array.isArray(body.data) ? (body.data as SunoUpstreamTask[]) : []
}

const sec = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined)
const STATUSES = new Set(['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN'])

const PLATFORM_LABEL: Record<string, string> = { suno: 'Suno', kling: 'Kling' }

/**
 * Apply an update to a row of the `tasks` table (Suno, or Kling mapped to this shape by
 * kling-store.ts). The write applies only to the row as the caller read it (same status and
 * progress): of two callers racing with the same change one writes it — and runs `afterWrite` —,
 * the other gets the row as it now is.
 */
export async function applySunoUpdate(
  env: Env,
  row: TaskRow,
  up: SunoUpstreamTask | { forceFailure: string },
  /** Runs once this call wrote a change (not when the row was unchanged or another writer won). */
  afterWrite?: (next: TaskRow) => Promise<void>
): Promise<TaskRow> {
  if (row.progress === '100%') return row
  const next: TaskRow = { ...row }
  if ('forceFailure' in up) {
    next.status = 'FAILURE'
    next.fail_reason = up.forceFailure
  } else {
    if (typeof up.status === 'string' && STATUSES.has(up.status)) next.status = up.status
    if (typeof up.fail_reason === 'string' && up.fail_reason) next.fail_reason = up.fail_reason.slice(0, 1000)
    next.start_time = sec(up.start_time) ?? next.start_time
    next.finish_time = sec(up.finish_time) ?? next.finish_time
    if (typeof up.progress === 'string' && /^\d{1,3}%$/.test(up.progress)) next.progress = up.progress
    if (up.data !== undefined && up.data !== null) next.data = JSON.stringify(up.data).slice(0, 200_000)
  }
  const failed = next.status === 'FAILURE' || next.fail_reason !== ''
  if (failed) next.status = 'FAILURE'
  if (failed || next.status === 'SUCCESS') {
    next.progress = '100%'
    if (!next.finish_time) next.finish_time = nowSeconds()
  }
  const changed = (Object.keys(next) as (keyof TaskRow)[]).some((k) => next[k] !== row[k])
  if (!changed) return row
  next.updated_at = nowSeconds()
  const result = await env.DB.prepare(
    `UPDATE tasks SET status = ?, fail_reason = ?, start_time = ?, finish_time = ?, progress = ?, data = ?, updated_at = ?
     WHERE id = ? AND progress != '100%' AND progress = ? AND status = ?`
  )
    .bind(next.status, next.fail_reason, next.start_time, next.finish_time, next.progress, next.data, next.updated_at, row.id, row.progress, row.status)
    .run()
  if (result.meta.changes !== 1) return (await env.DB.prepare('SELECT * FROM tasks WHERE id = ?').bind(row.id).first<TaskRow>()) ?? row
  await settleTaskUpdate(env, {
    platform: row.platform === 'kling' ? 'kling' : 'suno',
    label: `${PLATFORM_LABEL[row.platform] ?? row.platform} ${row.action}`,
    upstreamId: row.task_id,
    row,
    status: next.status,
    progress: next.progress,
    failReason: next.fail_reason,
    failed,
  })
  await afterWrite?.(next)
  return next
}

const sunoPoll = (env: Env): BatchedPoll<TaskRow, SunoUpstreamTask> => ({
  label: 'suno',
  upstreamId: (row) => row.task_id,
  fetch: fetchSunoUpstream,
  answerId: (answer) => answer.task_id,
  apply: (row, answer) => applySunoUpdate(env, row, answer),
})

/** Refresh unfinished rows, batched per channel; past the timeout they fail (and are refunded). */
export async function refreshSunoTasks(env: Env, rows: TaskRow[], channels: Record<number, RoutedChannel>): Promise<TaskRow[]> {
  const out = new Map(rows.map((r) => [r.id, r]))
  const byChannel = new Map<number, TaskRow[]>()
  for (const row of rows) {
    if (row.progress === '100%') continue
    if (nowSeconds() - row.submit_time > SUNO_TIMEOUT_SECONDS || !row.task_id) {
      out.set(row.id, await applySunoUpdate(env, row, { forceFailure: row.task_id ? SUNO_TIMEOUT_REASON : 'The upstream gave no task id' }))
      continue
    }
    byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row])
  }
  await pollPerChannel(byChannel, channels, sunoPoll(env), out)
  return rows.map((r) => out.get(r.id) ?? r)
}
