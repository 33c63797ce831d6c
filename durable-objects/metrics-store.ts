/**
 * MetricsStore: one global object holding the metrics merged from every isolate. Isolates send what
 * they recorded since their last flush (worker/lib/metrics/recorder.ts, in `waitUntil`, at most every
 * 10 s); `merge` adds it (counters and histograms summed, gauges by maximum) and persists each
 * family it touched under its own key, so a restart keeps the counts. The scrape reads `snapshot()`.
 * Counters only grow (Prometheus handles resets, but there are none here short of deleting the object).
 */
import { DurableObject } from 'cloudflare:workers'
import { emptySnapshot, type MetricsSnapshot, mergeSnapshots } from '../worker/lib/metrics/registry'

type Section = keyof MetricsSnapshot
const SECTIONS: readonly Section[] = ['counters', 'gauges', 'histograms']

export class MetricsStore extends DurableObject {
  private state: MetricsSnapshot | undefined

  private load(): MetricsSnapshot {
    if (this.state) return this.state
    const state = emptySnapshot()
    for (const section of SECTIONS) {
      for (const [key, value] of this.ctx.storage.kv.list<Record<string, never>>({ prefix: `${section}:` })) {
        ;(state[section] as Record<string, unknown>)[key.slice(section.length + 1)] = value
      }
    }
    this.state = state
    return state
  }

  merge(snap: MetricsSnapshot): void {
    const state = mergeSnapshots(this.load(), snap)
    for (const section of SECTIONS) {
      for (const name of Object.keys(snap[section])) this.ctx.storage.kv.put(`${section}:${name}`, state[section][name])
    }
  }

  snapshot(): MetricsSnapshot {
    return this.load()
  }
}
