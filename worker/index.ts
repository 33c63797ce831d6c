/**
 * Worker entry: the Hono app for HTTP, the cron dispatcher, and the Durable Object classes.
 */
import { app } from './app'
import { runScheduled } from './cron'

export { ChannelHealth } from '../durable-objects/channel-health'
export { ConfigVersion } from '../durable-objects/config-version'
export { RateLimiter } from '../durable-objects/rate-limiter'
export { TaskQueue } from '../durable-objects/task-queue'
export { TelegramPoller } from '../durable-objects/telegram-poller'
export { UserWallet } from '../durable-objects/user-wallet'

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller, env))
  },
} satisfies ExportedHandler<Env>
