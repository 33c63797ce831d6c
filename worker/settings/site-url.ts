/**
 * The public base URL of the site for links in mails and OAuth redirect URIs: the ServerAddress
 * setting when set (trailing slashes removed), else the origin of the current request.
 */
import type { Context } from 'hono'
import type { Settings } from './store'

export function siteBaseUrl(c: Context, settings: Settings): string {
  const configured = settings.str('ServerAddress').trim().replace(/\/+$/, '')
  return configured || new URL(c.req.url).origin
}
