/** Public site information and content: /api/status, /api/notice, /api/about, /api/home_page_content. */
import { Hono } from 'hono'
import { publicRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { getSettings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { isSetupNeeded, siteInfo } from './status.service'

export const statusRoutes = new Hono<HonoEnv>()
  .get('/status', publicRoute, async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    return ok(c, siteInfo(c.env, settings, await isSetupNeeded(c.env)))
  })
  .get('/notice', publicRoute, async (c) => ok(c, (await getSettings(c.env, c.executionCtx)).str('Notice')))
  .get('/about', publicRoute, async (c) => ok(c, (await getSettings(c.env, c.executionCtx)).str('About')))
  .get('/home_page_content', publicRoute, async (c) =>
    ok(c, (await getSettings(c.env, c.executionCtx)).str('HomePageContent'))
  )
