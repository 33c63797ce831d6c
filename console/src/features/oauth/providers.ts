/**
 * The external sign-in methods: which are enabled in the site info, and the
 * authorization URLs of GitHub and Lark (OIDC gets its URL from the server). WeChat has no
 * redirect: the user types the code the official account replies with.
 */
import type { SiteInfo } from '@contract/site'
import { siteUrl } from '@/lib/base-path'

/** Methods that leave the site and come back to /oauth/<provider>. */
export const REDIRECT_PROVIDERS = ['github', 'oidc', 'lark'] as const
export type RedirectProvider = (typeof REDIRECT_PROVIDERS)[number]
export type LoginMethod = RedirectProvider | 'wechat'
/** The order of the buttons on the login and register pages. */
export const LOGIN_METHODS: readonly LoginMethod[] = ['github', 'oidc', 'lark', 'wechat']

/** What POST /api/user/unbind accepts. */
export type BindingType = LoginMethod | 'email'

export const isRedirectProvider = (value: string): value is RedirectProvider => (REDIRECT_PROVIDERS as readonly string[]).includes(value)

export function methodEnabled(site: SiteInfo, method: LoginMethod): boolean {
  switch (method) {
    case 'github':
      return site.github_oauth && Boolean(site.github_client_id)
    case 'oidc':
      return site.oidc_auth
    case 'lark':
      return site.lark_login && Boolean(site.lark_client_id)
    case 'wechat':
      return site.wechat_login
  }
}

export const enabledMethods = (site: SiteInfo) => LOGIN_METHODS.filter((m) => methodEnabled(site, m))

/** The page a provider sends the browser back to: the configured server address, else this origin (plus the base path). */
export function callbackUrl(site: SiteInfo, provider: RedirectProvider): string {
  const base = site.server_address.trim().replace(/\/+$/, '') || siteUrl()
  return `${base}/oauth/${provider}`
}

export function githubAuthorizeUrl(site: SiteInfo, state: string): string {
  const url = new URL('https://github.com/login/oauth/authorize')
  url.searchParams.set('client_id', site.github_client_id)
  url.searchParams.set('state', state)
  url.searchParams.set('scope', 'user:email')
  return url.toString()
}

export function larkAuthorizeUrl(site: SiteInfo, state: string): string {
  const url = new URL('https://open.feishu.cn/open-apis/authen/v1/authorize')
  url.searchParams.set('app_id', site.lark_client_id)
  url.searchParams.set('redirect_uri', callbackUrl(site, 'lark'))
  url.searchParams.set('state', state)
  return url.toString()
}
