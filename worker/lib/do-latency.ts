/**
 * Test and benchmark only: every call on a Durable Object stub waits DO_LATENCY_MS first, as if
 * the object lived on another continent. Honoured only together with DO_LATENCY_TEST=1 (neither is
 * ever set in wrangler.toml), so `npm run bench` can show that no warm request waits on a Durable
 * Object (the delay is `config(env).doLatencyMs`, read at the Worker entry). The wrapped bindings reach both `c.env` and `env` from cloudflare:workers (withEnv).
 */
import { shareConfig } from './env'

/** Every Durable Object binding of wrangler.toml (a test keeps the list complete). */
export const DO_BINDINGS = ['WALLET', 'CHANNEL_HEALTH', 'RATE_LIMITER', 'CONFIG_VERSION', 'TELEGRAM_POLLER', 'TASK_QUEUE', 'METRICS_STORE'] as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function delayedStub<T extends object>(stub: T, ms: number): T {
  return new Proxy(stub, {
    get(target, prop) {
      // `then` must stay undefined (a stub is not a promise); symbols are not RPC methods.
      if (typeof prop !== 'string' || prop === 'then') return Reflect.get(target, prop)
      return async (...args: unknown[]) => {
        await sleep(ms)
        // RPC stubs answer every property name (`apply` too): call through the stub itself.
        return (target as Record<string, (...a: unknown[]) => unknown>)[prop]!(...args)
      }
    },
  })
}

function delayedNamespace<T extends object>(ns: T, ms: number): T {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (typeof value !== 'function') return value
      if (prop === 'get' || prop === 'getByName') {
        return (...args: unknown[]) => delayedStub((value as (...a: unknown[]) => object).apply(target, args), ms)
      }
      return (value as (...a: unknown[]) => unknown).bind(target)
    },
  })
}

/** `env` with every Durable Object namespace binding wrapped so each stub call waits `ms`. */
export function withDelayedDurableObjects(env: Env, ms: number): Env {
  const out: Record<string, unknown> = { ...env }
  for (const name of DO_BINDINGS) if (out[name]) out[name] = delayedNamespace(out[name] as object, ms)
  shareConfig(env, out)
  return out as unknown as Env
}
