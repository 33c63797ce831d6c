/**
 * Per-file set-up of the browser tests: `useBrowser()` launches Chromium for the file;
 * `useFreshGateway()` also starts a private gateway (optionally with the root account created
 * through the API). Both register their own beforeAll/afterAll and return an object that is
 * filled in once the hooks have run.
 */
import { afterAll, beforeAll } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './browser'
import { setupRoot, startFreshServer, type Account, type ApiSession, type FreshServer } from './fresh-server'

export function useBrowser(): { browser: Browser } {
  const suite = {} as { browser: Browser }
  beforeAll(async () => {
    suite.browser = await launchBrowser()
  })
  afterAll(async () => {
    await suite.browser?.close()
  })
  return suite
}

export interface GatewaySuite {
  browser: Browser
  server: FreshServer
  /** The root's API session when `root` was given. */
  session: ApiSession
}

export function useFreshGateway(root?: Account): GatewaySuite {
  const suite = {} as GatewaySuite
  beforeAll(async () => {
    suite.server = await startFreshServer()
    if (root) suite.session = await setupRoot(suite.server.url, root)
    suite.browser = await launchBrowser()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.server?.stop()
  })
  return suite
}
