/**
 * Statistics rollup: consume logs → `statistics` rows per day × user × channel × model (requests,
 * quota, prompt and completion tokens, total duration, prompt tokens served from the supplier's
 * prompt cache — `cached_tokens` of the log metadata, counted here only, so it trails the
 * write-behind figures by up to one cron run). A day is recomputed from its logs in one
 * D1 transaction (delete + insert-select), so reruns are idempotent; dashboards read only these rows.
 * Days are rolled up before log retention deletes their rows, and a finished day is never
 * recomputed after cleanup, so totals survive log deletion.
 */
import { LOG_TYPE } from '../db/schema'

export const dayStart = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000)
export const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

export async function rollupDay(env: Env, date: string): Promise<number> {
  const from = dayStart(date)
  const to = from + 86400
  const [, inserted] = await env.DB.batch([
    env.DB.prepare('DELETE FROM statistics WHERE date = ?').bind(date),
    env.DB.prepare(
      `INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens)
       SELECT ?, user_id, channel_id, model_name, COUNT(*), SUM(quota), SUM(prompt_tokens), SUM(completion_tokens), SUM(request_time),
              SUM(COALESCE(json_extract(metadata, '$.cached_tokens'), 0))
       FROM logs WHERE type = ? AND created_at >= ? AND created_at < ?
       GROUP BY user_id, channel_id, model_name`
    ).bind(date, LOG_TYPE.CONSUME, from, to),
  ])
  return inserted?.meta.changes ?? 0
}

/** Today (and yesterday, whose last minutes may have arrived late) — run every few minutes. */
export async function rollupRecent(env: Env, now = Date.now()) {
  const today = dateOf(Math.floor(now / 1000))
  const yesterday = dateOf(Math.floor(now / 1000) - 86400)
  return { [yesterday]: await rollupDay(env, yesterday), [today]: await rollupDay(env, today) }
}
