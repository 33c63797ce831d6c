/**
 * Worker entry: the Hono app for HTTP, the cron dispatcher, and the Durable Object classes.
 */
import { app } from './app'

export { ConfigVersion } from '../durable-objects/config-version'
export { RateLimiter } from '../durable-objects/rate-limiter'

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>
