/**
 * The public base URL of the site for links in mails and OAuth redirect URIs: the ServerAddress
 * setting when set (trailing slashes removed), else the origin of the current request plus the
 * BASE_PATH prefix (lib/base-path.ts).
 */
import type { Context } from 'hono'
import type { Settings } from './store'
import { publicSiteUrl } from '../lib/base-path'

export function siteBaseUrl(c: Context, settings: Settings): string {
  const configured = settings.str('ServerAddress').trim().replace(/\/+$/, '')
  return configured || publicSiteUrl(c)
}
