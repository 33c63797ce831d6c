/**
 * What the system page knows about the cron jobs: each job's last run (when, how long, ok or the
 * error), kept in one KV value per trigger and written once at the end of a scheduled run (two KV
 * operations per five minutes), and the next run of each trigger from its cron expression
 * (wrangler.toml [triggers]: only the minute and hour fields vary in this gateway's expressions).
 */
import { redactSecrets } from '../lib/redact'
import { cacheKeys } from '../cache/keys'

export interface CronRun {
  /** When the job started (ms). */
  at: number
  ms: number
  result: 'ok' | 'error'
  error?: string
}

/** The runs of one scheduled invocation, merged over the trigger's earlier report when saved. */
export class CronReport {
  private readonly runs: Record<string, CronRun> = {}

  constructor(private readonly cron: string) {}

  add(job: string, run: CronRun) {
    this.runs[job] = run.error ? { ...run, error: redactSecrets(run.error).slice(0, 300) } : run
  }

  async save(env: Env) {
    if (Object.keys(this.runs).length === 0) return
    const before = await readTrigger(env, this.cron)
    await env.CACHE.put(cacheKeys.cronReport(this.cron), JSON.stringify({ ...before, ...this.runs }))
  }
}

async function readTrigger(env: Env, cron: string): Promise<Record<string, CronRun>> {
  try {
    return ((await env.CACHE.get(cacheKeys.cronReport(cron), 'json')) as Record<string, CronRun> | null) ?? {}
  } catch {
    return {}
  }
}

/** Every trigger's last runs by job. */
export async function readCronReports(env: Env, crons: string[]): Promise<Record<string, Record<string, CronRun>>> {
  const reports = await Promise.all(crons.map((c) => readTrigger(env, c)))
  return Object.fromEntries(crons.map((c, i) => [c, reports[i]!]))
}

/** The values a cron field allows (`*`, `*\/n`, `n`, `a,b`, `a-b`), or undefined for a form not handled. */
function fieldValues(field: string, min: number, max: number): Set<number> | undefined {
  const out = new Set<number>()
  for (const part of field.split(',')) {
    const step = /^(\*|\d+-\d+)\/(\d+)$/.exec(part)
    const range = /^(\d+)-(\d+)$/.exec(part)
    if (part === '*') for (let v = min; v <= max; v++) out.add(v)
    else if (step) {
      const [lo, hi] = step[1] === '*' ? [min, max] : step[1]!.split('-').map(Number)
      for (let v = lo!; v <= hi!; v += Number(step[2])) out.add(v)
    } else if (range) for (let v = Number(range[1]); v <= Number(range[2]); v++) out.add(v)
    else if (/^\d+$/.test(part)) out.add(Number(part))
    else return undefined
  }
  return out
}

/** The next time (ms, UTC, after `from`) a five-field cron expression fires; undefined if it uses day fields. */
export function nextCronRun(expr: string, from: number): number | undefined {
  const [minute, hour, ...days] = expr.trim().split(/\s+/)
  if (!minute || !hour || days.length !== 3 || days.some((d) => d !== '*')) return undefined
  const minutes = fieldValues(minute, 0, 59)
  const hours = fieldValues(hour, 0, 23)
  if (!minutes || !hours) return undefined
  let t = Math.floor(from / 60_000) * 60_000 + 60_000
  for (let i = 0; i < 48 * 60; i++, t += 60_000) {
    const d = new Date(t)
    if (minutes.has(d.getUTCMinutes()) && hours.has(d.getUTCHours())) return t
  }
  return undefined
}
