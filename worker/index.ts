/**
 * Worker entry: the Hono app for HTTP, the cron dispatcher, and the Durable Object classes.
 * Paths that are not the gateway's go to the static assets (on Cloudflare `run_worker_first` never
 * sends them here; under `npm start` the Worker is the whole server — see lib/self-hosted.ts).
 */
import { withEnv } from 'cloudflare:workers'
import { app } from './app'
import { runScheduled } from './cron'
import { doLatencyMs, withDelayedDurableObjects } from './lib/do-latency'
import { isWorkerPath, pathOf, withKnownPeer } from './lib/self-hosted'

export { ChannelHealth } from '../durable-objects/channel-health'
export { ConfigVersion } from '../durable-objects/config-version'
export { RateLimiter } from '../durable-objects/rate-limiter'
export { TaskQueue } from '../durable-objects/task-queue'
export { TelegramPoller } from '../durable-objects/telegram-poller'
export { UserWallet } from '../durable-objects/user-wallet'

interface SelfHostedVars {
  SELF_HOSTED_CLIENT_IP?: string
}

export default {
  fetch(incoming, env, ctx) {
    if (!isWorkerPath(pathOf(incoming.url))) return env.ASSETS.fetch(incoming)
    const peer = (env as SelfHostedVars).SELF_HOSTED_CLIENT_IP
    const request: Request = peer ? withKnownPeer(incoming, peer) : incoming
    const latency = doLatencyMs(env)
    if (latency) {
      const delayed = withDelayedDurableObjects(env, latency)
      return withEnv(delayed, () => app.fetch(request, delayed, ctx)) as Response | Promise<Response>
    }
    return app.fetch(request, env, ctx)
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller, env))
  },
} satisfies ExportedHandler<Env>
