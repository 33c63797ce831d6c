/**
 * Prometheus text exposition format 0.0.4 of a merged snapshot plus the gauges read at scrape time:
 * `# HELP` / `# TYPE` per family, escaped label values, cumulative `_bucket{le=…}` with `+Inf`,
 * `_sum` and `_count`. Hand-written because it is ~60 lines: prom-client needs Node's runtime and
 * its own global registry, which fits neither workerd nor a state merged across isolates.
 */
import { METRICS, type MetricDef } from './catalogue'
import { labelValues, type MetricsSnapshot } from './registry'

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** A gauge family computed at scrape time (e.g. channel status read from D1). */
export interface ScrapeGauge {
  name: string
  help: string
  labels: readonly string[]
  samples: { values: readonly (string | number)[]; value: number }[]
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

function num(v: number): string {
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  if (Number.isNaN(v)) return 'NaN'
  return String(v)
}

function labelText(names: readonly string[], values: readonly (string | number)[], extra?: string): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(String(values[i] ?? ''))}"`)
  if (extra) parts.push(extra)
  return parts.length ? `{${parts.join(',')}}` : ''
}

function header(lines: string[], name: string, help: string, kind: string) {
  lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${kind}`)
}

export function renderPrometheus(snap: MetricsSnapshot, gauges: readonly ScrapeGauge[] = []): string {
  const lines: string[] = []
  for (const [name, def] of Object.entries(METRICS) as [string, MetricDef][]) {
    header(lines, name, def.help, def.kind)
    const arity = def.labels.length
    if (def.kind === 'histogram') {
      const bounds = def.buckets ?? []
      for (const [key, h] of Object.entries(snap.histograms[name] ?? {}).sort(byKey)) {
        if (h.length !== bounds.length + 3) continue
        const values = labelValues(key, arity)
        let cumulative = 0
        for (let i = 0; i <= bounds.length; i++) {
          cumulative += h[i]!
          const le = i < bounds.length ? num(bounds[i]!) : '+Inf'
          lines.push(`${name}_bucket${labelText(def.labels, values, `le="${le}"`)} ${cumulative}`)
        }
        lines.push(`${name}_sum${labelText(def.labels, values)} ${num(h[bounds.length + 1]!)}`)
        lines.push(`${name}_count${labelText(def.labels, values)} ${h[bounds.length + 2]!}`)
      }
      continue
    }
    const series = def.kind === 'counter' ? snap.counters[name] : snap.gauges[name]
    for (const [key, v] of Object.entries(series ?? {}).sort(byKey)) lines.push(`${name}${labelText(def.labels, labelValues(key, arity))} ${num(v)}`)
  }
  for (const g of gauges) {
    header(lines, g.name, g.help, 'gauge')
    for (const s of g.samples) lines.push(`${g.name}${labelText(g.labels, s.values)} ${num(s.value)}`)
  }
  return `${lines.join('\n')}\n`
}

const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
