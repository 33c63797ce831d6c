/**
 * The typed way to the per-channel TaskQueue Durable Objects (task-queue.do.ts) that
 * poll unfinished Midjourney/Suno tasks with alarms: submits add their task, the cron re-adds
 * stragglers (tasks in no queue, e.g. after a failed add).
 */
import type { QueuedPlatform } from './task-queue.do'

export const taskQueueOf = (env: Env, channelId: number) => env.TASK_QUEUE.getByName(`channel:${channelId}`)

/** Put tasks into their channel's queue (idempotent); returns how many were not queued yet. `base`: the public base URL. */
export function trackTasks(env: Env, channelId: number, platform: QueuedPlatform, ids: number[], base?: string): Promise<number> {
  return taskQueueOf(env, channelId).track(platform, ids, base)
}
