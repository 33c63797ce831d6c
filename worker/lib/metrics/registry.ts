/**
 * The isolate-local metric registry: counters, max-gauges and fixed-bucket histograms keyed by
 * their label values, plus the snapshot shape the isolates send to the MetricsStore Durable Object
 * and the merge both sides use. Recording is a few Map operations: no await, no I/O (the relay's
 * hot path calls it; `npm run bench` measures it). Series per family are capped; label values past
 * the cap are recorded as "other" so a flood of distinct values cannot grow memory without bound.
 */
import { METRICS, type MetricName } from './catalogue'

/** Label values joined into one Map key (the unit separator never appears in our label values). */
const SEP = '\u001f'
/** Distinct label sets per family, per isolate and in the store. */
export const MAX_SERIES = 2000

/**
 * Counters and gauges: key → value. Histograms: key → [bucket counts (not cumulative)…, +Inf
 * count, sum, count].
 */
export interface MetricsSnapshot {
  counters: Record<string, Record<string, number>>
  gauges: Record<string, Record<string, number>>
  histograms: Record<string, Record<string, number[]>>
}

export const emptySnapshot = (): MetricsSnapshot => ({ counters: {}, gauges: {}, histograms: {} })

export function labelKey(values: readonly (string | number)[]): string {
  return values.length === 1 ? String(values[0]) : values.join(SEP)
}

export function labelValues(key: string, arity: number): string[] {
  return arity === 0 ? [] : arity === 1 ? [key] : key.split(SEP)
}

/** The series key of `values`, or the all-"other" key once the family holds MAX_SERIES series. */
function admit(series: Map<string, unknown> | Record<string, unknown>, key: string, arity: number): string {
  const size = series instanceof Map ? series.size : Object.keys(series).length
  if (size < MAX_SERIES) return key
  const has = series instanceof Map ? series.has(key) : key in series
  return has ? key : labelKey(new Array<string>(arity).fill('other'))
}

export class MetricsRegistry {
  private counters = new Map<string, Map<string, number>>()
  private gauges = new Map<string, Map<string, number>>()
  private histograms = new Map<string, Map<string, number[]>>()
  /** Whether anything was recorded since the last take(). */
  dirty = false

  private family<V>(maps: Map<string, Map<string, V>>, name: string): Map<string, V> {
    let series = maps.get(name)
    if (!series) {
      series = new Map()
      maps.set(name, series)
    }
    return series
  }

  inc(name: MetricName, values: readonly (string | number)[], by = 1) {
    if (!(by > 0)) return
    const series = this.family(this.counters, name)
    const key = admit(series, labelKey(values), values.length)
    series.set(key, (series.get(key) ?? 0) + by)
    this.dirty = true
  }

  /** A gauge merged by maximum (e.g. a last-success timestamp). */
  max(name: MetricName, values: readonly (string | number)[], value: number) {
    const series = this.family(this.gauges, name)
    const key = admit(series, labelKey(values), values.length)
    const old = series.get(key)
    if (old === undefined || value > old) series.set(key, value)
    this.dirty = true
  }

  observe(name: MetricName, values: readonly (string | number)[], value: number) {
    if (!Number.isFinite(value)) return
    const bounds = (METRICS[name] as { buckets?: readonly number[] }).buckets ?? []
    const series = this.family(this.histograms, name)
    const key = admit(series, labelKey(values), values.length)
    let h = series.get(key)
    if (!h) {
      h = new Array<number>(bounds.length + 3).fill(0)
      series.set(key, h)
    }
    let i = 0
    while (i < bounds.length && value > bounds[i]!) i++
    h[i]!++
    h[bounds.length + 1]! += value
    h[bounds.length + 2]!++
    this.dirty = true
  }

  /** Everything recorded so far as a plain object, leaving the registry empty. */
  take(): MetricsSnapshot {
    const snap: MetricsSnapshot = { counters: toRecord(this.counters), gauges: toRecord(this.gauges), histograms: toRecord(this.histograms) }
    this.counters = new Map()
    this.gauges = new Map()
    this.histograms = new Map()
    this.dirty = false
    return snap
  }

  /** Put a snapshot back (a flush that failed), so nothing recorded is lost. */
  restore(snap: MetricsSnapshot) {
    const mine = this.take()
    const merged = mergeSnapshots(snap, mine)
    for (const [name, series] of Object.entries(merged.counters)) this.counters.set(name, new Map(Object.entries(series)))
    for (const [name, series] of Object.entries(merged.gauges)) this.gauges.set(name, new Map(Object.entries(series)))
    for (const [name, series] of Object.entries(merged.histograms)) this.histograms.set(name, new Map(Object.entries(series)))
    this.dirty = true
  }
}

function toRecord<V>(maps: Map<string, Map<string, V>>): Record<string, Record<string, V>> {
  const out: Record<string, Record<string, V>> = {}
  for (const [name, series] of maps) if (series.size) out[name] = Object.fromEntries(series)
  return out
}

/** `into` plus `add` (counters and histograms summed, gauges by maximum); `into` is changed and returned. */
export function mergeSnapshots(into: MetricsSnapshot, add: MetricsSnapshot): MetricsSnapshot {
  for (const [name, series] of Object.entries(add.counters)) {
    const target = (into.counters[name] ??= {})
    const arity = METRICS[name as MetricName]?.labels.length ?? 1
    for (const [k, v] of Object.entries(series)) {
      const key = admit(target, k, arity)
      target[key] = (target[key] ?? 0) + v
    }
  }
  for (const [name, series] of Object.entries(add.gauges)) {
    const target = (into.gauges[name] ??= {})
    const arity = METRICS[name as MetricName]?.labels.length ?? 1
    for (const [k, v] of Object.entries(series)) {
      const key = admit(target, k, arity)
      target[key] = Math.max(target[key] ?? v, v)
    }
  }
  for (const [name, series] of Object.entries(add.histograms)) {
    const target = (into.histograms[name] ??= {})
    const arity = METRICS[name as MetricName]?.labels.length ?? 1
    for (const [k, v] of Object.entries(series)) {
      const key = admit(target, k, arity)
      const old = target[key]
      if (!old) target[key] = [...v]
      // A bucket layout from another deploy: kept apart is impossible, so the older one wins.
      else if (old.length === v.length) for (let i = 0; i < v.length; i++) old[i]! += v[i]!
    }
  }
  return into
}
