/**
 * Kling video tasks in the `tasks` table (platform "kling", action text2video | image2video): the
 * upstream's status → ours (submitted → SUBMITTED 0%, processing → IN_PROGRESS 50%, succeed →
 * SUCCESS, failed → FAILURE, else UNKNOWN), one GET per task to refresh it, and the answer a client
 * gets: the last Kling response we stored, with the gateway's task id in place of the upstream's.
 * Updates go through the tasks table's one update path (suno-store.ts applySunoUpdate), so a
 * failure is refunded once whoever sees it; the 1 h timeout applies as for Suno. Each change written
 * here goes to the task's `callback_url` (kept in `notify_hook`) in Kling's task shape.
 */
import type { RoutedChannel } from '../../channels/types'
import type { BackgroundCtx } from '../../cache/versioned'
import { nowSeconds } from '../../lib/time'
import { applySunoUpdate, SUNO_TIMEOUT_REASON, SUNO_TIMEOUT_SECONDS, type SunoUpstreamTask, type TaskRow } from '../suno/suno-store'
import { klingAuthorization } from './kling-auth'
import { postToClientHook } from '../client-hook'
import { logger } from '../../lib/logger'

const serverLog = logger({ module: 'kling' })

export const KLING_CHANNEL_TYPE = 53
export const KLING_ACTIONS = ['text2video', 'image2video'] as const
export type KlingAction = (typeof KLING_ACTIONS)[number]

/** Kling's reply envelope (fields we read). */
export interface KlingAnswer {
  code?: number
  message?: string
  request_id?: string
  data?: { task_id?: string; task_status?: string; task_status_msg?: string; created_at?: number; updated_at?: number; task_result?: unknown }
}

const STATUS: Record<string, [string, string]> = {
  submitted: ['SUBMITTED', '0%'],
  processing: ['IN_PROGRESS', '50%'],
  succeed: ['SUCCESS', '100%'],
  failed: ['FAILURE', '100%'],
}

const seconds = (ms: unknown) => (typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0 ? Math.floor(ms / 1000) : undefined)

/** A Kling answer in the tasks table's update shape. */
export function klingUpdate(answer: KlingAnswer): SunoUpstreamTask {
  const d = answer.data ?? {}
  const [status, progress] = STATUS[d.task_status ?? ''] ?? ['UNKNOWN', undefined]
  return {
    status,
    progress,
    fail_reason: status === 'FAILURE' ? String(d.task_status_msg || 'The video task failed').slice(0, 1000) : '',
    start_time: seconds(d.created_at),
    finish_time: progress === '100%' ? seconds(d.updated_at) : undefined,
    data: answer,
  }
}

export const klingBase = (channel: Pick<RoutedChannel, 'baseUrl'>) => (channel.baseUrl || 'https://api.klingai.com').replace(/\/+$/, '')

export async function klingHeaders(channel: Pick<RoutedChannel, 'key' | 'headers'>): Promise<Headers> {
  return new Headers({ ...channel.headers, 'content-type': 'application/json', authorization: await klingAuthorization(channel.key) })
}

/** The stored answer with the gateway's id (what GET …/{action}/{id} returns). */
export function klingDto(row: TaskRow): unknown {
  let stored: KlingAnswer = {}
  try {
    stored = row.data ? (JSON.parse(row.data) as KlingAnswer) : {}
  } catch {
    stored = {}
  }
  return { ...stored, data: { ...(stored.data ?? {}), task_id: String(row.id) } }
}

export async function ownKlingTask(env: Env, userId: number, action: string, id: string): Promise<TaskRow | null> {
  if (!/^\d{1,15}$/.test(id)) return null
  return env.DB.prepare("SELECT * FROM tasks WHERE id = ? AND user_id = ? AND platform = 'kling' AND action = ?").bind(Number(id), userId, action).first<TaskRow>()
}

async function fetchKling(channel: RoutedChannel, row: TaskRow): Promise<KlingAnswer | undefined> {
  const res = await fetch(`${klingBase(channel)}/v1/videos/${row.action}/${encodeURIComponent(row.task_id)}`, {
    headers: await klingHeaders(channel),
    signal: AbortSignal.timeout(5000),
  })
  const body = (await res.json().catch(() => undefined)) as KlingAnswer | undefined
  if (!res.ok || !body || body.code !== 0) throw new Error(`kling fetch answered HTTP ${res.status}, code ${body?.code}`)
  return body
}

/**
 * What the client's `callback_url` receives when its task changes: the task object of Kling's own
 * answers (task_id — the gateway's —, task_status, task_status_msg, times, task_result).
 */
export function klingCallbackBody(row: TaskRow): Record<string, unknown> {
  const data = (klingDto(row) as { data: Record<string, unknown> }).data
  // A timeout or a lost task id fails the row without a Kling answer saying so.
  return row.status === 'FAILURE' && data.task_status !== 'failed' ? { ...data, task_status: 'failed', task_status_msg: row.fail_reason } : data
}

/**
 * Tell the client's callback_url (when it gave one) about a change this isolate just wrote: in the
 * background of a request (`background`: its answer does not wait for the client's server), else
 * awaited (the queue's alarm, the cron).
 */
const callBack = (env: Env, background?: BackgroundCtx) => async (next: TaskRow) => {
  if (!next.notify_hook) return
  const post = postToClientHook(env, next.notify_hook, klingCallbackBody(next), `kling task ${next.id}`)
  if (background) background.waitUntil(post)
  else await post
}

/** Refresh unfinished Kling rows (one GET each); past the timeout they fail (and are refunded). */
export async function refreshKlingTasks(env: Env, rows: TaskRow[], channels: Record<number, RoutedChannel>, background?: BackgroundCtx): Promise<TaskRow[]> {
  return Promise.all(
    rows.map(async (row) => {
      if (row.progress === '100%') return row
      if (nowSeconds() - row.submit_time > SUNO_TIMEOUT_SECONDS || !row.task_id) {
        return applySunoUpdate(env, row, { forceFailure: row.task_id ? SUNO_TIMEOUT_REASON : 'The upstream gave no task id' }, callBack(env, background))
      }
      const channel = channels[row.channel_id]
      if (!channel) return row // a disabled channel may come back; the timeout settles its tasks
      try {
        const answer = await fetchKling(channel, row)
        return answer ? applySunoUpdate(env, row, klingUpdate(answer), callBack(env, background)) : row
      } catch (err) {
        serverLog.error('task poll failed', { platform: 'kling', task_id: row.id, error: err })
        return row
      }
    })
  )
}
