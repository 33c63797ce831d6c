/**
 * Lists for the console's task pages: Midjourney tasks (`midjourneys`, times in ms) and the other
 * asynchronous tasks (`tasks`, Suno and Kling; times in seconds). Users see their own rows; admins see every
 * row they outrank (shared/rank), with the channel, the owner and the upstream task id.
 */
import { z } from 'zod'
import type { SessionUser } from '../../env'
import { getRoutingTable } from '../../channels/routing-table'
import { refreshMjTasks, type MjRow } from '../../tasks/midjourney/mj-store'
import { scrubData, type TaskRow } from '../../tasks/suno/suno-store'
import { claimListRefresh, refreshTaskRows } from '../../tasks/task-rows'
import type { BackgroundCtx } from '../../cache/versioned'
import type { ImageRewrite } from '../../tasks/task-images'
import { ROLE } from '../../../shared/contract/enums'
import type { Page } from '../../../shared/contract/paging'
import type { MjTaskView, TaskView } from '../../../shared/contract/tasks'

const STATUS = z.enum(['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'MODAL', 'FAILURE', 'SUCCESS', 'UNKNOWN'])
const common = {
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  status: STATUS.optional(),
  action: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_]{1,40}$/)
    .optional(),
  start_timestamp: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  end_timestamp: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  task_id: z
    .string()
    .trim()
    .regex(/^\d{1,15}$/)
    .optional(),
  channel_id: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
  username: z.string().trim().max(64).optional(),
}
export const mjQuery = z.object(common)
export const taskQuery = z.object({ ...common, platform: z.enum(['suno', 'kling']).optional() })
export type MjQuery = z.infer<typeof mjQuery>
export type TaskQuery = z.infer<typeof taskQuery>

/** Whose rows: one user's (self pages) or what an admin may see. */
export type Scope = { userId: number } | { admin: SessionUser }

const parse = (text: string, fallback: unknown) => {
  try {
    return text ? JSON.parse(text) : fallback
  } catch {
    return fallback
  }
}

function where(q: MjQuery & { platform?: string }, scope: Scope, table: 'm' | 't') {
  const clauses: string[] = []
  const binds: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => {
    clauses.push(sql)
    binds.push(...values)
  }
  if ('userId' in scope) add(`${table}.user_id = ?`, scope.userId)
  else {
    if (scope.admin.role < ROLE.ROOT) add(`${table}.user_id NOT IN (SELECT id FROM users WHERE role >= ? AND id <> ?)`, scope.admin.role, scope.admin.id)
    if (q.channel_id !== undefined) add(`${table}.channel_id = ?`, q.channel_id)
    if (q.username) add(`${table}.user_id IN (SELECT id FROM users WHERE username = ?)`, q.username)
  }
  if (table === 't') {
    if (q.platform) add(`t.platform = ?`, q.platform)
    else add(`t.platform IN ('suno', 'kling')`)
  }
  if (q.status) add(`${table}.status = ?`, q.status)
  // Midjourney and Suno actions are upper-case; Kling's (text2video, image2video) lower-case.
  if (q.action) add(`${table}.action IN (?, ?)`, q.action.toUpperCase(), q.action.toLowerCase())
  if (q.task_id) add(`${table}.id = ?`, Number(q.task_id))
  if (q.start_timestamp !== undefined) add(`${table}.submit_time >= ?`, q.start_timestamp)
  if (q.end_timestamp !== undefined) add(`${table}.submit_time <= ?`, q.end_timestamp)
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', binds }
}

async function page<R>(env: Env, from: string, q: { p: number; page_size: number }, w: { sql: string; binds: unknown[] }, alias: string) {
  const [rows, count] = await env.DB.batch([
    env.DB.prepare(`SELECT ${alias}.*, u.username FROM ${from} LEFT JOIN users u ON u.id = ${alias}.user_id ${w.sql} ORDER BY ${alias}.id DESC LIMIT ? OFFSET ?`).bind(
      ...w.binds,
      q.page_size,
      (q.p - 1) * q.page_size
    ),
    env.DB.prepare(`SELECT COUNT(*) AS n FROM ${from} ${w.sql}`).bind(...w.binds),
  ])
  return { rows: (rows!.results ?? []) as R[], total: ((count!.results?.[0] as { n: number } | undefined)?.n ?? 0) as number }
}

/** Unfinished rows given are brought up to date from their channels (one batched call each for Midjourney and Suno). */
async function fresh<R extends { id: number; progress: string; username?: string }>(
  env: Env,
  rows: R[],
  refresh: (env: Env, rows: R[], channels: Awaited<ReturnType<typeof getRoutingTable>>['channels'], background?: BackgroundCtx) => Promise<R[]>,
  background?: BackgroundCtx
): Promise<R[]> {
  if (rows.every((r) => r.progress === '100%')) return rows
  const updated = await refresh(env, rows, (await getRoutingTable(env)).channels, background)
  return updated.map((r, i) => ({ ...r, username: rows[i]!.username }))
}

/** `rewrite` gives the image link clients may see (the MjImageProxy setting, tasks/task-images.ts). */
export async function listMj(env: Env, q: MjQuery, scope: Scope, rewrite: ImageRewrite = async (_id, url) => url): Promise<Page<MjTaskView>> {
  const admin = 'admin' in scope
  const listed = await page<MjRow & { username?: string }>(env, 'midjourneys m', q, where(q, scope, 'm'), 'm')
  const rows = await fresh<MjRow & { username?: string }>(env, listed.rows, refreshMjTasks)
  const total = listed.total
  const data = await Promise.all(
    rows.map(
      async (r): Promise<MjTaskView> => ({
        id: r.id,
        action: r.action,
        status: r.status,
        progress: r.progress,
        prompt: r.prompt,
        prompt_en: r.prompt_en,
        description: r.description,
        fail_reason: r.fail_reason,
        image_url: await rewrite(r.id, r.image_url),
        submit_time: r.submit_time,
        start_time: r.start_time,
        finish_time: r.finish_time,
        quota: r.quota,
        mode: r.mode,
        token_id: r.token_id,
        ...(admin ? { channel_id: r.channel_id, user_id: r.user_id, username: r.username ?? '', mj_id: r.mj_id } : {}),
      })
    )
  )
  return { data, page: q.p, size: q.page_size, total_count: total }
}

/** `background`: the request's context (a Kling client's callback is posted there, not awaited). */
export async function listTasks(env: Env, q: TaskQuery, scope: Scope, background?: BackgroundCtx): Promise<Page<TaskView>> {
  const admin = 'admin' in scope
  const listed = await page<TaskRow & { username?: string }>(env, 'tasks t', q, where(q, scope, 't'), 't')
  // Only rows nobody polled in the last 15 s, and a bounded number of them (task-rows.ts).
  const due = await claimListRefresh(env, listed.rows)
  const updated = new Map((await fresh<TaskRow & { username?: string }>(env, due, refreshTaskRows, background)).map((r) => [r.id, r]))
  const rows = listed.rows.map((r) => updated.get(r.id) ?? r)
  const total = listed.total
  const data = rows.map(
    (r): TaskView => ({
      id: r.id,
      platform: r.platform,
      action: r.action,
      status: r.status,
      progress: r.progress,
      fail_reason: r.fail_reason,
      submit_time: r.submit_time,
      start_time: r.start_time,
      finish_time: r.finish_time,
      quota: r.quota,
      token_id: r.token_id,
      properties: parse(r.properties, {}),
      data: scrubData(r.data) as TaskView['data'],
      ...(admin ? { channel_id: r.channel_id, user_id: r.user_id, username: r.username ?? '', task_id: r.task_id } : {}),
    })
  )
  return { data, page: q.p, size: q.page_size, total_count: total }
}
