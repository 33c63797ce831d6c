/**
 * Pure shaping of the rollup rows for the dashboard: per-model totals (the statistics table and
 * the pie), day × model series for the stacked charts (the largest models each get a series, the
 * rest are summed into "other"), and per-day token totals. Days without usage count as zero.
 */
import type { UsageRow } from './api'

export type Metric = 'quota' | 'request_count'

/** A model's rollup rows summed over the range (`request_time` is the total in ms: average = request_time / request_count). */
export type ModelTotal = Omit<UsageRow, 'date' | 'cached_tokens' | 'saved_quota'>

/** The quota response-cache hits saved over the rows. */
export const savedQuotaOf = (rows: UsageRow[]) => rows.reduce((s, r) => s + (r.saved_quota ?? 0), 0)

/** Totals per model, largest consumption first. */
export function modelTotals(rows: UsageRow[]): ModelTotal[] {
  const byModel = new Map<string, ModelTotal>()
  for (const r of rows) {
    const t = byModel.get(r.model_name) ?? {
      model_name: r.model_name,
      request_count: 0,
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      request_time: 0,
    }
    t.request_count += r.request_count
    t.quota += r.quota
    t.prompt_tokens += r.prompt_tokens
    t.completion_tokens += r.completion_tokens
    t.request_time += r.request_time
    byModel.set(r.model_name, t)
  }
  return [...byModel.values()].sort((a, b) => b.quota - a.quota || b.request_count - a.request_count)
}

/** A series of a stacked chart: `key` is a safe data key (model names may contain dots). */
export interface Series {
  key: string
  name: string
  /** Index into the chart palette; -1 for the "other" series. */
  color: number
}

export const OTHER_KEY = 'other'

/**
 * Day × model values of one metric. The `max` largest models (by that metric over the range) are
 * series of their own; the remaining ones are added up under `other` (named by `otherName`).
 * Colours follow the models' order in `palette` so a model keeps its colour across charts.
 */
export function seriesByModel(rows: UsageRow[], days: string[], metric: Metric, palette: string[], otherName: string, max = 7) {
  const totals = new Map<string, number>()
  for (const r of rows) totals.set(r.model_name, (totals.get(r.model_name) ?? 0) + r[metric])
  const ranked = [...totals.entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1])
  const own = ranked.length > max ? ranked.slice(0, max - 1) : ranked
  const keyOf = new Map(own.map(([name], i) => [name, `s${i}`]))
  const series: Series[] = own.map(([name], i) => ({ key: `s${i}`, name, color: Math.max(0, palette.indexOf(name)) }))
  if (ranked.length > own.length) series.push({ key: OTHER_KEY, name: otherName, color: -1 })

  const empty = () => Object.fromEntries(series.map((s) => [s.key, 0])) as Record<string, number>
  const byDay = new Map(days.map((d) => [d, { date: d, ...empty() } as Record<string, number | string>]))
  for (const r of rows) {
    const point = byDay.get(r.date)
    if (!point) continue
    const key = keyOf.get(r.model_name) ?? OTHER_KEY
    if (key === OTHER_KEY && !series.some((s) => s.key === OTHER_KEY)) continue
    point[key] = (point[key] as number) + r[metric]
  }
  return { data: [...byDay.values()], series }
}

export interface DayTokens {
  date: string
  prompt_tokens: number
  completion_tokens: number
}

/** Input and output tokens per day. */
export function tokensByDay(rows: UsageRow[], days: string[]): DayTokens[] {
  const byDay = new Map(days.map((d) => [d, { date: d, prompt_tokens: 0, completion_tokens: 0 }]))
  for (const r of rows) {
    const point = byDay.get(r.date)
    if (!point) continue
    point.prompt_tokens += r.prompt_tokens
    point.completion_tokens += r.completion_tokens
  }
  return [...byDay.values()]
}

/** Milliseconds → '850 ms' or '1.25 s'. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 ms'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`
}
