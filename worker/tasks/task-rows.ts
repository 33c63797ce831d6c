/**
 * Refreshing rows of the generic `tasks` table whatever their platform: Suno rows in one batched
 * call per channel (suno-store.ts), Kling rows one GET each (kling-store.ts). Used by the console
 * lists, the TaskQueue Durable Object and the cron sweep. A row's `updated_at` is the last time the
 * gateway polled or changed it: the queue stamps the rows it polls, and a console list refreshes
 * only rows not polled for LIST_REFRESH_SECONDS, at most LIST_REFRESH_MAX per call, so listing a
 * page of open Kling tasks again and again cannot turn into a flood of upstream GETs.
 */
import type { RoutedChannel } from '../channels/types'
import type { BackgroundCtx } from '../cache/versioned'
import { nowSeconds } from '../lib/time'
import { refreshKlingTasks } from './kling/kling-store'
import { refreshSunoTasks, type TaskRow } from './suno/suno-store'

/** `background`: a request's context, so a Kling client's callback does not hold up its answer. */
export async function refreshTaskRows(env: Env, rows: TaskRow[], channels: Record<number, RoutedChannel>, background?: BackgroundCtx): Promise<TaskRow[]> {
  const kling = rows.filter((r) => r.platform === 'kling')
  const suno = rows.filter((r) => r.platform === 'suno')
  const out = new Map<number, TaskRow>()
  for (const r of [...(suno.length ? await refreshSunoTasks(env, suno, channels) : []), ...(kling.length ? await refreshKlingTasks(env, kling, channels, background) : [])])
    out.set(r.id, r)
  return rows.map((r) => out.get(r.id) ?? r)
}

/** A console list leaves a row to the queue when it was polled this recently. */
export const LIST_REFRESH_SECONDS = 15
/** Rows one console list call may refresh from upstream (the longest unpolled first). */
export const LIST_REFRESH_MAX = 20

/**
 * The unfinished rows of a console list page that are due a refresh: not polled or changed for
 * LIST_REFRESH_SECONDS, at most LIST_REFRESH_MAX. They are claimed in one write (their `updated_at`
 * set to now), so a second list at once — from any isolate — finds none due.
 */
export async function claimListRefresh<R extends TaskRow>(env: Env, rows: R[]): Promise<R[]> {
  const open = rows.filter((r) => r.progress !== '100%')
  if (open.length === 0) return []
  const now = nowSeconds()
  const { results } = await env.DB.prepare(
    `UPDATE tasks SET updated_at = ? WHERE id IN (
       SELECT id FROM tasks WHERE id IN (${open.map(() => '?').join(',')}) AND progress != '100%' AND updated_at <= ? ORDER BY updated_at, id LIMIT ?
     ) RETURNING id`
  )
    .bind(now, ...open.map((r) => r.id), now - LIST_REFRESH_SECONDS, LIST_REFRESH_MAX)
    .all<{ id: number }>()
  const claimed = new Set(results.map((r) => r.id))
  return open.filter((r) => claimed.has(r.id))
}

/** The queue polled these rows: stamp them so console lists leave them alone for a while. */
export async function markPolled(env: Env, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await env.DB.prepare(`UPDATE tasks SET updated_at = ? WHERE id IN (${ids.map(() => '?').join(',')}) AND progress != '100%'`)
    .bind(nowSeconds(), ...ids)
    .run()
}
