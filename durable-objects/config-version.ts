/**
 * ConfigVersion: one global object holding a version number per cached snapshot (settings, prices,
 * channels…). Writers bump a version after changing D1; every isolate polls `versions()` in the
 * background every couple of seconds and reloads a snapshot whose version moved. The hot path never
 * awaits this object.
 */
import { DurableObject } from 'cloudflare:workers'

export class ConfigVersion extends DurableObject {
  private cache: Record<string, number> | undefined

  private load(): Record<string, number> {
    this.cache ??= this.ctx.storage.kv.get<Record<string, number>>('versions') ?? {}
    return this.cache
  }

  versions(): Record<string, number> {
    return { ...this.load() }
  }

  bump(name: string): number {
    const versions = this.load()
    const next = (versions[name] ?? 0) + 1
    versions[name] = next
    this.ctx.storage.kv.put('versions', versions)
    return next
  }
}
