/**
 * TaskQueue: polling of unfinished asynchronous tasks (Midjourney, Suno, Kling) without a server. One
 * object per channel (`channel:<id>`, see worker/tasks/task-queue.ts) keeps the ids of its tasks
 * that are still running, each with its next poll time. Its alarm polls the due ones in one batched
 * upstream call per platform (list-by-condition for Midjourney, /suno/fetch for Suno; Kling has
 * no batch, one GET per task) through the
 * same refresh code as the fetch routes and the notify callback: a task that changed is asked
 * again after 15 s, one that did not backs off 15 s → 30 s → 60 s; the 1 h timeout fails and
 * refunds it there. Finished or vanished tasks leave the queue; the alarm stops when it is empty.
 * A Midjourney change found here is forwarded to the client's own notifyHook (MjNotifyEnabled),
 * as the notify route does, so the client hears of it even when the upstream's callback is lost;
 * a Kling change goes to the task's callback_url from the tasks table's update path (kling-store.ts).
 */
import { DurableObject } from 'cloudflare:workers'
import { getRoutingTable } from '../channels/routing-table'
import { getSettings } from '../settings/store'
import { clientPayload } from './midjourney/mj-notify'
import { postToClientHook } from './client-hook'
import { refreshMjTasks, wroteUpdate, type MjRow } from './midjourney/mj-store'
import type { TaskRow } from './suno/suno-store'
import { markPolled, refreshTaskRows } from './task-rows'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'task-queue' })

export type QueuedPlatform = 'mj' | 'suno' | 'kling'

export const FIRST_POLL_MS = 15_000
export const MAX_POLL_MS = 60_000
/** After a failed pass (D1 or routing table unavailable) the due tasks wait this long. */
const RETRY_MS = 30_000
/** Tasks polled per pass and platform (the upstream batch and a D1 IN list stay small). */
const BATCH = 100

interface Entry {
  platform: QueuedPlatform
  id: number
  /** Wait before the next poll (ms). */
  interval: number
  /** When it is due (ms since the epoch). */
  next: number
}

const keyOf = (platform: QueuedPlatform, id: number) => `t:${platform}:${id}`

export class TaskQueue extends DurableObject<Env> {
  private get kv() {
    return this.ctx.storage.kv
  }

  private entries(): Entry[] {
    return [...this.kv.list<Entry>({ prefix: 't:' })].map(([, e]) => e)
  }

  /**
   * Add tasks (already-queued ones keep their schedule); returns how many were new. `base` is the
   * gateway's public base URL as the submit saw it (for image links in forwarded updates).
   */
  async track(platform: QueuedPlatform, ids: number[], base?: string): Promise<number> {
    if (base) this.kv.put('base', base)
    let added = 0
    const now = Date.now()
    for (const id of ids) {
      if (this.kv.get(keyOf(platform, id))) continue
      this.kv.put(keyOf(platform, id), { platform, id, interval: FIRST_POLL_MS, next: now + FIRST_POLL_MS } satisfies Entry)
      added++
    }
    await this.arm()
    return added
  }

  /** The queued tasks (for tests and the status of a channel). */
  list(): Entry[] {
    return this.entries().sort((a, b) => a.next - b.next)
  }

  async alarm(): Promise<void> {
    await this.pollDue(Date.now())
  }

  /** Poll every task due at `now`, reschedule or drop each, and re-arm the alarm. */
  async pollDue(now: number): Promise<{ polled: number; finished: number }> {
    const due = this.entries().filter((e) => e.next <= now)
    let finished = 0
    try {
      const channels = due.length ? (await getRoutingTable(this.env)).channels : {}
      for (const platform of ['mj', 'suno', 'kling'] as const) {
        const mine = due.filter((e) => e.platform === platform).slice(0, BATCH)
        if (mine.length === 0) continue
        const ids = mine.map((e) => e.id)
        const marks = ids.map(() => '?').join(',')
        const before =
          platform === 'mj'
            ? (
                await this.env.DB.prepare(`SELECT * FROM midjourneys WHERE id IN (${marks})`)
                  .bind(...ids)
                  .all<MjRow>()
              ).results
            : (
                await this.env.DB.prepare(`SELECT * FROM tasks WHERE platform = ? AND id IN (${marks})`)
                  .bind(platform, ...ids)
                  .all<TaskRow>()
              ).results
        const open = before.filter((r) => r.progress !== '100%')
        const after: (MjRow | TaskRow)[] =
          platform === 'mj' ? await refreshMjTasks(this.env, open as MjRow[], channels) : await refreshTaskRows(this.env, open as TaskRow[], channels)
        // Console lists leave recently polled rows alone (worker/tasks/task-rows.ts); a failed stamp only costs an extra poll.
        if (platform !== 'mj')
          await markPolled(
            this.env,
            open.map((r) => r.id)
          ).catch((err) => serverLog.error('task queue stamp failed', { error: err }))
        const byId = new Map(after.map((r, i) => [r.id, { row: r, changed: r !== open[i] }]))
        if (platform === 'mj') await this.forward((after as MjRow[]).filter(wroteUpdate))
        for (const e of mine) {
          const hit = byId.get(e.id)
          if (!hit || hit.row.progress === '100%') {
            this.kv.delete(keyOf(platform, e.id))
            finished++
            continue
          }
          const interval = hit.changed ? FIRST_POLL_MS : Math.min(e.interval * 2, MAX_POLL_MS)
          this.kv.put(keyOf(platform, e.id), { ...e, interval, next: now + interval } satisfies Entry)
        }
      }
    } catch (err) {
      serverLog.error('task queue pass failed', { error: err })
      for (const e of due) if (this.kv.get(keyOf(e.platform, e.id))) this.kv.put(keyOf(e.platform, e.id), { ...e, next: now + RETRY_MS } satisfies Entry)
    }
    await this.arm()
    return { polled: due.length, finished }
  }

  /** Send changed Midjourney tasks to their clients' hooks (only when MjNotifyEnabled is on). */
  private async forward(changed: MjRow[]): Promise<void> {
    const hooked = changed.filter((r) => r.notify_hook)
    if (hooked.length === 0) return
    const settings = await getSettings(this.env)
    if (!settings.bool('MjNotifyEnabled')) return
    const base = settings.str('ServerAddress').trim().replace(/\/+$/, '') || this.kv.get<string>('base') || ''
    await Promise.all(hooked.map(async (r) => postToClientHook(this.env, r.notify_hook, await clientPayload(this.env, settings, base, r), `mj task ${r.id}`)))
  }

  /** The alarm at the earliest due task, or none when the queue is empty. */
  private async arm(): Promise<void> {
    const next = Math.min(...this.entries().map((e) => e.next))
    if (!Number.isFinite(next)) return this.ctx.storage.deleteAlarm()
    const current = await this.ctx.storage.getAlarm()
    if (current === null || current > next) await this.ctx.storage.setAlarm(next)
  }
}
