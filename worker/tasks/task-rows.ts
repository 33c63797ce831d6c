/**
 * Refreshing rows of the generic `tasks` table whatever their platform: Suno rows in one batched
 * call per channel (suno-store.ts), Kling rows one GET each (kling-store.ts). Used by the console
 * lists, the TaskQueue Durable Object and the cron sweep.
 */
import type { RoutedChannel } from '../relay/routing-table'
import type { BackgroundCtx } from '../cache/versioned'
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
