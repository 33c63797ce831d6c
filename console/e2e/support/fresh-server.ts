/**
 * A private gateway for browser tests that need first-run state (or their own users): fresh D1/KV
 * state in a temp dir with the real migrations applied (a copy of the global setup's migrated
 * template, scripts/test-state.ts), the Worker bundle built by the global setup, and the console
 * from console/dist. Stop it when done.
 */
import { rmSync } from 'node:fs'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../../scripts/serve.mjs'
import { freshMigratedState } from '../../../scripts/fresh-state'

export interface FreshServer {
  url: string
  /** The server's Miniflare: its D1 (`getD1Database('DB')`) and Worker (`getWorker()`, e.g. to run the cron). */
  mf: any
  stop(): Promise<void>
}

/** `vars` are more Worker variables (e.g. BASE_PATH) on top of the test defaults. */
export async function startFreshServer(vars: Record<string, string> = {}): Promise<FreshServer> {
  const persistDir = freshMigratedState('console-e2e-')
  const server = await startServer({
    port: 0,
    persistDir,
    quiet: true,
    cron: false,
    build: false,
    vars: { CRITICAL_RATE_LIMIT: '100000', ...vars },
  })
  return {
    url: (server.url as URL).href.replace(/\/$/, ''),
    mf: server.mf,
    async stop() {
      await server.stop()
      rmSync(persistDir, { recursive: true, force: true })
    },
  }
}

export interface Account {
  username: string
  password: string
}

/** Cookies of an API session: the XSRF token and, once signed in, the session. */
export interface ApiSession {
  cookie: string
  xsrf: string
}

const cookiePairs = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0])

/** Creates the root account through the API (GET /api/status for the XSRF cookie, then POST /api/setup). */
export async function setupRoot(baseUrl: string, account: Account): Promise<ApiSession> {
  const xsrfPair = cookiePairs(await fetch(`${baseUrl}/api/status`)).find((c) => c.startsWith('XSRF-TOKEN='))
  if (!xsrfPair) throw new Error('no XSRF-TOKEN cookie from /api/status')
  const xsrf = xsrfPair.slice('XSRF-TOKEN='.length)
  const res = await fetch(`${baseUrl}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: xsrfPair, 'X-XSRF-TOKEN': xsrf },
    body: JSON.stringify(account),
  })
  if (!res.ok) throw new Error(`setup failed: ${res.status} ${await res.text()}`)
  const session = cookiePairs(res).find((c) => c.startsWith('session='))
  if (!session) throw new Error('setup did not start a session')
  return { cookie: `${xsrfPair}; ${session}`, xsrf }
}

/** Saves site options as root (PUT /api/option/). */
export async function saveOptions(baseUrl: string, session: ApiSession, options: Record<string, string>): Promise<void> {
  const res = await fetch(`${baseUrl}/api/option/`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-XSRF-TOKEN': session.xsrf },
    body: JSON.stringify({ options }),
  })
  if (!res.ok) throw new Error(`saving options failed: ${res.status} ${await res.text()}`)
}
