/**
 * The cron's part in polling asynchronous tasks (Midjourney, Suno, Kling): the per-channel TaskQueue
 * Durable Objects poll running tasks with alarms (tasks/task-queue.ts); this sweep takes at most
 * `limit` of the oldest unfinished rows per platform, fails (and refunds) those past the 1 h timeout
 * at once, and puts the rest back into their channel's queue — a no-op for tasks already queued, so
 * only stragglers (a lost add, a queue that was reset) are re-armed. It also deletes Midjourney rows
 * a submit held but never opened (the isolate died while asking the upstream; they cost nothing).
 */
import { getRoutingTable } from '../channels/routing-table'
import { MJ_TIMEOUT_MS, refreshMjTasks, type MjRow } from './midjourney/mj-store'
import { SUNO_TIMEOUT_SECONDS, type TaskRow } from './suno/suno-store'
import { refreshTaskRows } from './task-rows'
import { trackTasks } from './task-queue'
import type { QueuedPlatform } from './task-queue.do'
import { nowSeconds } from '../lib/time'

export interface SweepResult {
  mj: number
  /** Unfinished rows of the tasks table (Suno and Kling). */
  suno: number
  /** Tasks that were in no queue and were put back. */
  rearmed: number
}

/** A submit holds its row for at most the upstream's 60 s timeout; this leaves a wide margin. */
const HELD_ROW_MAX_AGE_MS = 10 * 60_000

async function requeue(env: Env, platform: QueuedPlatform, rows: { id: number; channel_id: number }[]): Promise<number> {
  const byChannel = new Map<number, number[]>()
  for (const r of rows) byChannel.set(r.channel_id, [...(byChannel.get(r.channel_id) ?? []), r.id])
  let added = 0
  for (const [channelId, ids] of byChannel) added += await trackTasks(env, channelId, platform, ids)
  return added
}

const isKling = (r: TaskRow) => r.platform === 'kling'

export async function pollUnfinishedTasks(env: Env, limit = 200): Promise<SweepResult> {
  await env.DB.prepare("DELETE FROM midjourneys WHERE mj_id = '' AND status = 'NOT_START' AND quota = 0 AND submit_time < ?")
    .bind(Date.now() - HELD_ROW_MAX_AGE_MS)
    .run()
  const mj = (await env.DB.prepare("SELECT * FROM midjourneys WHERE progress != '100%' ORDER BY id LIMIT ?").bind(limit).all<MjRow>()).results
  const suno = (await env.DB.prepare("SELECT * FROM tasks WHERE platform IN ('suno', 'kling') AND progress != '100%' ORDER BY id LIMIT ?").bind(limit).all<TaskRow>()).results
  const lateMj = mj.filter((r) => Date.now() - r.submit_time > MJ_TIMEOUT_MS)
  const lateSuno = suno.filter((r) => nowSeconds() - r.submit_time > SUNO_TIMEOUT_SECONDS)
  if (lateMj.length || lateSuno.length) {
    const { channels } = await getRoutingTable(env)
    if (lateMj.length) await refreshMjTasks(env, lateMj, channels)
    if (lateSuno.length) await refreshTaskRows(env, lateSuno, channels)
  }
  let rearmed = await requeue(
    env,
    'mj',
    mj.filter((r) => !lateMj.includes(r))
  )
  const open = suno.filter((r) => !lateSuno.includes(r))
  rearmed += await requeue(
    env,
    'suno',
    open.filter((r) => !isKling(r))
  )
  rearmed += await requeue(env, 'kling', open.filter(isKling))
  return { mj: mj.length, suno: suno.length, rearmed }
}
