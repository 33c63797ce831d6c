/**
 * The cron sweep over unfinished asynchronous tasks (Midjourney and Suno): each run takes at most
 * `limit` of the oldest unfinished rows per platform, refreshes them from their channels in one
 * batched call per channel, and fails (and refunds) those past the 1 h timeout. Clients that poll
 * their task get it refreshed at once by the fetch routes; this sweep catches the tasks nobody asks
 * about, so every charge for a failed task comes back even when the client went away.
 */
import { getRoutingTable } from '../relay/routing-table'
import { refreshMjTasks, type MjRow } from './midjourney/mj-store'
import { refreshSunoTasks, type TaskRow } from './suno/suno-store'

export async function pollUnfinishedTasks(env: Env, limit = 200): Promise<{ mj: number; suno: number }> {
  const table = await getRoutingTable(env)
  const mj = await env.DB.prepare("SELECT * FROM midjourneys WHERE progress != '100%' ORDER BY id LIMIT ?").bind(limit).all<MjRow>()
  if (mj.results.length) await refreshMjTasks(env, mj.results, table.channels)
  const suno = await env.DB.prepare("SELECT * FROM tasks WHERE platform = 'suno' AND progress != '100%' ORDER BY id LIMIT ?").bind(limit).all<TaskRow>()
  if (suno.results.length) await refreshSunoTasks(env, suno.results, table.channels)
  return { mj: mj.results.length, suno: suno.results.length }
}
