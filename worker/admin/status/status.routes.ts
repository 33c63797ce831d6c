/** Public site information and content: /api/status, /api/notice, /api/about, /api/home_page_content. */
import { Hono } from 'hono'
import { publicRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { getSettings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { deployedConsoleBuild, isSetupNeeded, siteInfo } from './status.service'
import { setupCodeRequired } from '../auth/setup-gate'
import type { SiteInfo } from '../../../shared/contract/site'

export const statusRoutes = new Hono<HonoEnv>()
  .get('/status', publicRoute, async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    const setupNeeded = await isSetupNeeded(c.env)
    // While nobody is root yet, the setup page learns whether this visitor must give the setup code.
    // console_build: an open console built otherwise offers to load the new version.
    return ok(c, {
      ...siteInfo(c.env, settings, setupNeeded),
      console_build: await deployedConsoleBuild(c.env),
      setup_code_required: setupNeeded && setupCodeRequired(c),
    } satisfies SiteInfo)
  })
  .get('/notice', publicRoute, async (c) => ok(c, (await getSettings(c.env, c.executionCtx)).str('Notice')))
  .get('/about', publicRoute, async (c) => ok(c, (await getSettings(c.env, c.executionCtx)).str('About')))
  .get('/home_page_content', publicRoute, async (c) => ok(c, (await getSettings(c.env, c.executionCtx)).str('HomePageContent')))
