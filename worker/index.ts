/**
 * Worker entry: the Hono app for HTTP, the cron dispatcher, and the Durable Object classes.
 * Under a BASE_PATH the prefix comes off first (lib/base-path.ts). Paths that are not the gateway's
 * go to the static assets (on Cloudflare `run_worker_first` never sends them here; under `npm start`
 * the Worker is the whole server — see lib/self-hosted.ts).
 */
import { withEnv } from 'cloudflare:workers'
import { app } from './app'
import { assetUnderBase, outsideBase, redirectToBase, routeUnderBase, stripBase } from './lib/base-path'
import { runScheduled } from './cron'
import { withDelayedDurableObjects } from './lib/do-latency'
import { config, type EnvConfig } from './lib/env'
import { flushMetrics } from './lib/metrics/recorder'
import { DRAIN_PATH, drain, isWorkerPath, pathOf, withKnownPeer } from './lib/self-hosted'

export { ChannelHealth } from './channels/channel-health.do'
export { ConfigVersion } from '../durable-objects/config-version'
export { MetricsStore } from '../durable-objects/metrics-store'
export { RateLimiter } from '../durable-objects/rate-limiter'
export { TaskQueue } from './tasks/task-queue.do'
export { TelegramPoller } from './telegram/poller.do'
export { UserWallet } from './wallet/user-wallet'

export default {
  fetch(incoming, env, ctx) {
    // The checked variables (lib/env.ts); when one is malformed the app answers with the error in
    // the caller's envelope, so the entry goes on without them.
    let vars: EnvConfig | undefined
    try {
      vars = config(env)
    } catch {
      vars = undefined
    }
    const path = pathOf(incoming.url)
    if (vars?.selfHostedDrainToken && path === DRAIN_PATH) return drain(incoming, vars.selfHostedDrainToken)
    // Under a BASE_PATH (lib/base-path.ts) everything inside routes by its path without the prefix.
    const base = vars?.basePath
    let inner: Request = incoming
    if (base) {
      const route = routeUnderBase(path, base)
      if (route.kind === 'slash') return redirectToBase(incoming.url, base)
      if (route.kind === 'outside') return outsideBase()
      inner = stripBase(incoming, route.path)
      if (!isWorkerPath(route.path)) return assetUnderBase(env.ASSETS, inner, base)
    } else if (!isWorkerPath(path)) return env.ASSETS.fetch(incoming)
    const peer = vars?.selfHostedClientIp
    const request: Request = peer ? withKnownPeer(inner, peer) : inner
    const latency = vars?.doLatencyMs ?? 0
    if (latency) {
      const delayed = withDelayedDurableObjects(env, latency)
      return withEnv(delayed, () => app.fetch(request, delayed, ctx)) as Response | Promise<Response>
    }
    return app.fetch(request, env, ctx)
  },
  async scheduled(controller, env, ctx) {
    // The jobs' metrics go to the MetricsStore at once: a cron isolate may serve nothing else.
    ctx.waitUntil(runScheduled(controller, env).then(() => flushMetrics(env)))
  },
} satisfies ExportedHandler<Env>
