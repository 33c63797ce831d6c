import { LOG_TYPE } from '../../shared/contract/enums'
/**
 * Statistics rollup: consume logs → `statistics` rows per day × user × channel × model (requests,
 * quota, prompt and completion tokens, total duration, prompt tokens served from the supplier's
 * prompt cache — `cached_tokens` of the log metadata, counted here only, so it trails the
 * write-behind figures by up to one cron run — and the quota the response cache saved, `saved_quota`). A day is recomputed from its logs as absolute
 * values (an upsert), so reruns are idempotent; dashboards read only these rows. A recount never
 * lowers a row and never removes one: the wallet's write-behind adds each consume row to its
 * statistics exactly once, so a smaller recount only means retention has deleted raw rows of that
 * day (under LogMaxRows a busy gateway's window can be shorter than the two days recounted here) —
 * so totals survive log deletion.
 */

export const dayStart = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000)
export const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

export async function rollupDay(env: Env, date: string): Promise<number> {
  const from = dayStart(date)
  const to = from + 86400
  const upserted = await env.DB.prepare(
    `INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens, saved_quota)
     SELECT ?, user_id, channel_id, model_name, COUNT(*), SUM(quota), SUM(prompt_tokens), SUM(completion_tokens), SUM(request_time),
            SUM(COALESCE(json_extract(metadata, '$.cached_tokens'), 0)), SUM(COALESCE(json_extract(metadata, '$.saved_quota'), 0))
     FROM logs WHERE type = ? AND created_at >= ? AND created_at < ?
     GROUP BY user_id, channel_id, model_name
     ON CONFLICT (date, user_id, channel_id, model_name) DO UPDATE SET
       request_count = excluded.request_count, quota = excluded.quota, prompt_tokens = excluded.prompt_tokens,
       completion_tokens = excluded.completion_tokens, request_time = excluded.request_time, cached_tokens = excluded.cached_tokens,
       saved_quota = excluded.saved_quota
     WHERE excluded.request_count >= statistics.request_count`
  )
    .bind(date, LOG_TYPE.CONSUME, from, to)
    .run()
  return upserted.meta.changes ?? 0
}

/** Today (and yesterday, whose last minutes may have arrived late) — run every few minutes. */
export async function rollupRecent(env: Env, now = Date.now()) {
  const today = dateOf(Math.floor(now / 1000))
  const yesterday = dateOf(Math.floor(now / 1000) - 86400)
  return { [yesterday]: await rollupDay(env, yesterday), [today]: await rollupDay(env, today) }
}
