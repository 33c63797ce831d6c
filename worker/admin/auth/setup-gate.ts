/**
 * Who may run the first-run setup. A request from the machine itself (loopback, as seen by the
 * runtime) may; any other request must carry the one-time setup code from env SETUP_CODE
 * (a Worker secret on Cloudflare, generated and printed by `npm start`). Without a configured code
 * a remote setup is refused, so the first visitor from the internet cannot become root.
 * Also owns the root's starting balance (one-hub's 100,000,000 units).
 */
import type { Context } from 'hono'
import { forbidden } from '../../lib/errors'
import { safeEqual } from '../../lib/crypto'
import { clientIp } from '../../lib/client-ip'
import { config } from '../../lib/env'

/** Root's initial balance, logged as a system log row in the setup batch. */
export const ROOT_INITIAL_QUOTA = 100_000_000

/**
 * Whether an address (from clientIp(): Cloudflare's edge gives the real client, never loopback;
 * the self-hosted runtime gives loopback only when it listens on loopback) is this machine.
 */
export function isLoopbackRequest(address: string | undefined): boolean {
  if (address === undefined) return true
  const ip = address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '')
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip)
}

/** Whether this request needs the setup code (the console asks for it only then). */
export function setupCodeRequired(c: Context): boolean {
  // setupCodeAlways: the runtime's loopback address cannot be trusted (npm start on a public interface).
  const { setupCode, setupCodeAlways } = config(c.env)
  if (setupCode && setupCodeAlways) return true
  return !isLoopbackRequest(clientIp(c.req, c.env))
}

/** Throws 403 unless the request may create the root account. */
export function assertSetupAllowed(c: Context, code: string | undefined): void {
  if (!setupCodeRequired(c)) return
  const expected = config(c.env).setupCode
  if (!expected) {
    throw forbidden('Setup from another machine needs a setup code: set the SETUP_CODE secret (wrangler secret put SETUP_CODE) and open /setup?code=<your code>')
  }
  if (!code || !safeEqual(code, expected)) throw forbidden('Invalid setup code')
}
