/**
 * Versioned snapshots: an isolate-local copy of data that rarely changes (settings, prices,
 * channels), fed by KV and rebuilt from D1 when missing. Cross-isolate freshness comes from the
 * ConfigVersion Durable Object: a background check (never awaited by the hot path) every
 * CHECK_INTERVAL_MS compares versions and reloads what moved. A writer calls `invalidate`, which
 * reloads at once on its own isolate. Snapshots that hold secrets are `sealed`: encrypted before
 * they reach KV (cache/seal.ts), and kept out of KV while no sealing key exists.
 */
import { onIsolateReset } from './isolate'
import { cacheKeys } from './keys'
import { seal, unseal } from './seal'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'snapshot' })

const CHECK_INTERVAL_MS = 2000

type Loader<T> = (env: Env) => Promise<T>

/** Anything with `waitUntil` (the Worker's or Hono's execution context). */
export interface BackgroundCtx {
  waitUntil(promise: Promise<unknown>): void
}

interface Entry<T> {
  value: T
  version: number
}

interface KvSnapshot<T> {
  version: number
  /** The value's shape (Snapshot's `format`); absent = 0. */
  format?: number
  value?: T
  /** Sealed snapshots: the encrypted JSON of the value. */
  sealed?: string
}

const registry = new Map<string, Snapshot<unknown>>()
let lastCheck = 0

export class Snapshot<T> {
  private entry: Entry<T> | undefined

  constructor(
    readonly name: string,
    private readonly loader: Loader<T>,
    /**
     * `format`: the value's shape, raised when a release changes it (a field added to every entry),
     * so a KV copy an older release wrote is rebuilt from D1 instead of read without the field.
     */
    private readonly options: { sealed?: boolean; format?: number } = {}
  ) {
    registry.set(name, this as Snapshot<unknown>)
    onIsolateReset(() => {
      this.entry = undefined
      lastCheck = 0
    })
  }

  /** Current value; loads on a cold isolate, otherwise served from memory. */
  async get(env: Env, ctx?: BackgroundCtx): Promise<T> {
    if (ctx) scheduleCheck(env, ctx)
    if (this.entry) return this.entry.value
    const fromKv = await this.readKv(env)
    if (fromKv) {
      this.entry = fromKv
      if (!ctx) await this.refreshIfBehind(env, (await versionsStub(env).versions())[this.name] ?? 0)
      return this.entry!.value
    }
    return this.reload(env, (await versionsStub(env).versions())[this.name] ?? 0)
  }

  /** Peek without loading (undefined on a cold isolate). */
  peek(): T | undefined {
    return this.entry?.value
  }

  /** After a write to D1: bump the version everywhere and reload here now. */
  async invalidate(env: Env): Promise<T> {
    const version = await versionsStub(env).bump(this.name)
    return this.reload(env, version)
  }

  async refreshIfBehind(env: Env, remoteVersion: number): Promise<void> {
    if (!this.entry || this.entry.version < remoteVersion) await this.reload(env, remoteVersion)
  }

  private async readKv(env: Env): Promise<Entry<T> | undefined> {
    const stored = await env.CACHE.get<KvSnapshot<T>>(cacheKeys.snapshot(this.name), 'json')
    if (!stored || (stored.format ?? 0) !== (this.options.format ?? 0)) return undefined
    if (!this.options.sealed) return stored.value === undefined ? undefined : { version: stored.version, value: stored.value }
    // A sealed snapshot never trusts a plaintext copy (written before sealing existed).
    const plain = stored.sealed ? await unseal(env, stored.sealed) : undefined
    return plain === undefined ? undefined : { version: stored.version, value: JSON.parse(plain) as T }
  }

  private async reload(env: Env, version: number): Promise<T> {
    const value = await this.loader(env)
    this.entry = { value, version }
    const key = cacheKeys.snapshot(this.name)
    const format = this.options.format ? { format: this.options.format } : {}
    if (!this.options.sealed) {
      await env.CACHE.put(key, JSON.stringify({ version, value, ...format } satisfies KvSnapshot<T>))
      return value
    }
    const sealed = await seal(env, JSON.stringify(value))
    if (sealed) await env.CACHE.put(key, JSON.stringify({ version, sealed, ...format } satisfies KvSnapshot<T>))
    else await env.CACHE.delete(key)
    return value
  }
}

function versionsStub(env: Env) {
  return env.CONFIG_VERSION.getByName('global')
}

function scheduleCheck(env: Env, ctx: BackgroundCtx) {
  const now = Date.now()
  if (now - lastCheck < CHECK_INTERVAL_MS) return
  lastCheck = now
  ctx.waitUntil(
    (async () => {
      const versions = await versionsStub(env).versions()
      for (const snap of registry.values()) {
        const remote = versions[snap.name] ?? 0
        if (snap.peek() !== undefined) await snap.refreshIfBehind(env, remote)
      }
    })().catch((err) => serverLog.error('snapshot version check failed', { error: err }))
  )
}
