/**
 * History: request logs (only with --with-logs; they are the bulk of a database), the daily
 * statistics the dashboards read (one-hub's table, or rolled up from the imported logs) and Midjourney
 * tasks. Ids are kept, so a re-run skips rows already present. one-api's log type 5 ("test") has no
 * twin here (5 is an error log), so those rows become system rows; Midjourney times are
 * milliseconds, in the source and here (the gateway's task code compares them with Date.now()).
 *
 * A Midjourney task the source left unfinished is imported finished (FAILURE, 100 %) with a marker in
 * its fail reason: the gateway's poller and cron sweep fail and refund every unfinished row past the
 * hour, and that refund belongs to the source's ledger (it refunded, or never charged, already).
 * Only moneyless source tables are imported besides (no Suno or Kling tasks).
 */
import { ImportPlan, bool, int, millis, str, type Value } from './plan'
import type { Row } from './sql-dump'

const LOG_TYPES = new Set([0, 1, 2, 3, 4])

export function mapLogs(plan: ImportPlan, rows: Row[]) {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('logs').read++
    const id = int(r.id)
    if (id <= 0) {
      plan.skip('logs', r, 'no usable id')
      continue
    }
    let type = int(r.type)
    let content = str(r.content)
    if (!LOG_TYPES.has(type)) {
      content = `[${plan.source} log type ${type}] ${content}`
      type = 4
    }
    const metadata = str(r.metadata)
    out.push({
      id,
      user_id: int(r.user_id),
      created_at: int(r.created_at),
      type,
      content,
      username: str(r.username),
      token_name: str(r.token_name),
      model_name: str(r.model_name),
      quota: int(r.quota),
      prompt_tokens: int(r.prompt_tokens),
      completion_tokens: int(r.completion_tokens),
      channel_id: int(r.channel_id ?? r.channel),
      request_time: int(r.request_time ?? r.elapsed_time),
      is_stream: bool(r.is_stream) ? 1 : 0,
      source_ip: str(r.source_ip),
      request_id: str(r.request_id),
      metadata: metadata && metadata !== 'null' ? metadata : null,
    })
  }
  plan.add({ table: 'logs', rows: out, onConflict: 'ignore' })
}

/** The gateway's finished mark (mj-store.ts `isFinished`): no poller, sweep or fetch touches such a row again. */
const MJ_FINISHED = '100%'
export const IMPORTED_UNFINISHED = 'imported unfinished; settled by the source gateway'

/** An unfinished source task as a terminal row: its charge (quota) stays for the record, never refunded here. */
function closeUnfinished(row: Record<string, Value>): Record<string, Value> {
  if (row.progress === MJ_FINISHED) return row
  const was = `was ${row.status || 'no status'} at ${row.progress || '0%'}`
  const reason = row.fail_reason ? `${IMPORTED_UNFINISHED} (${was}): ${row.fail_reason}` : `${IMPORTED_UNFINISHED} (${was})`
  return { ...row, status: 'FAILURE', progress: MJ_FINISHED, fail_reason: reason, finish_time: row.finish_time || row.submit_time || 0 }
}

export function mapMidjourneys(plan: ImportPlan, rows: Row[]) {
  const out: Record<string, Value>[] = []
  let closed = 0
  for (const r of rows) {
    plan.count('midjourneys').read++
    if (int(r.id) <= 0 || !int(r.user_id)) {
      plan.skip('midjourneys', r, 'no id or user')
      continue
    }
    if (str(r.progress) !== MJ_FINISHED) closed++
    out.push(
      closeUnfinished({
        id: int(r.id),
        code: int(r.code),
        user_id: int(r.user_id),
        action: str(r.action),
        mj_id: str(r.mj_id),
        prompt: str(r.prompt),
        prompt_en: str(r.prompt_en),
        description: str(r.description),
        state: str(r.state),
        submit_time: millis(r.submit_time),
        start_time: millis(r.start_time),
        finish_time: millis(r.finish_time),
        image_url: str(r.image_url),
        status: str(r.status),
        progress: str(r.progress),
        fail_reason: str(r.fail_reason),
        channel_id: int(r.channel_id),
        quota: int(r.quota),
        buttons: str(r.buttons),
        properties: str(r.properties),
        mode: str(r.mode),
        token_id: int(r.token_id),
      })
    )
  }
  if (closed) plan.notes.push(`midjourneys: ${closed} unfinished task(s) imported as failed, without a refund (the source gateway settled them)`)
  plan.add({ table: 'midjourneys', rows: out, onConflict: 'ignore' })
}

/** A one-hub `date` column as this gateway's YYYY-MM-DD (UTC). */
function day(v: unknown): string | undefined {
  if (typeof v === 'number' && v > 0) return new Date(v > 100_000_000_000 ? v : v * 1000).toISOString().slice(0, 10)
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(String(v ?? ''))
  return m?.[1]
}

/** one-hub's daily rollup (dashboards read it, never raw logs): its history shows even without --with-logs. */
export function mapStatistics(plan: ImportPlan, rows: Row[]) {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('statistics').read++
    const date = day(r.date)
    if (!date) {
      plan.skip('statistics', { id: `${str(r.date)}/${str(r.user_id)}/${str(r.model_name)}` }, 'no readable date')
      continue
    }
    out.push({
      date,
      user_id: int(r.user_id),
      channel_id: int(r.channel_id),
      model_name: str(r.model_name),
      request_count: int(r.request_count),
      quota: int(r.quota),
      prompt_tokens: int(r.prompt_tokens),
      completion_tokens: int(r.completion_tokens),
      request_time: int(r.request_time),
    })
  }
  const update = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time']
  plan.add({ table: 'statistics', rows: out, onConflict: { target: ['date', 'user_id', 'channel_id', 'model_name'], update } })
}

/**
 * Without a source rollup, the days the imported logs cover are rolled up from the logs after they
 * are written (as the gateway's cron does for today), one month per statement.
 */
export function statisticsFromLogs(logs: Record<string, Value>[]): string[] {
  const months = new Set(logs.filter((l) => l.type === 2).map((l) => new Date(Number(l.created_at) * 1000).toISOString().slice(0, 7)))
  return [...months].sort().flatMap((month) => {
    const from = Date.parse(`${month}-01T00:00:00Z`) / 1000
    const next = new Date(from * 1000)
    next.setUTCMonth(next.getUTCMonth() + 1)
    const to = next.getTime() / 1000
    return [
      `DELETE FROM statistics WHERE date >= '${month}-01' AND date < '${next.toISOString().slice(0, 10)}'`,
      `INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time) ` +
        `SELECT strftime('%Y-%m-%d', created_at, 'unixepoch'), user_id, channel_id, model_name, COUNT(*), SUM(quota), SUM(prompt_tokens), SUM(completion_tokens), SUM(request_time) ` +
        `FROM logs WHERE type = 2 AND created_at >= ${from} AND created_at < ${to} GROUP BY 1, user_id, channel_id, model_name`,
    ]
  })
}
