/**
 * Lark / Feishu login: the app access token (app id + secret), then the user access token for
 * the callback code, then the user info. The bound id is the user's open_id within the app.
 */
import type { Settings } from '../../../settings/store'
import type { ExternalIdentity } from '../accounts'
import { fetchJson, providerError } from '../provider-http'

export const LARK_APP_TOKEN_URL = 'https://open.feishu.cn/open-apis/auth/v3/app_access_token/internal'
export const LARK_USER_TOKEN_URL = 'https://open.feishu.cn/open-apis/authen/v1/oidc/access_token'
export const LARK_USER_INFO_URL = 'https://open.feishu.cn/open-apis/authen/v1/user_info'

interface LarkAnswer<T> {
  code?: number
  msg?: string
  data?: T
}

const json = { 'content-type': 'application/json; charset=utf-8' }

export async function larkIdentity(settings: Settings, code: string): Promise<ExternalIdentity> {
  const app = await fetchJson<LarkAnswer<never> & { app_access_token?: string }>('Lark', LARK_APP_TOKEN_URL, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ app_id: settings.str('LarkClientId'), app_secret: settings.str('LarkClientSecret') }),
  })
  if (app.body.code !== 0 || !app.body.app_access_token) throw providerError('Lark', app.body.msg || 'cannot get the app access token')

  const token = await fetchJson<LarkAnswer<{ access_token?: string }>>('Lark', LARK_USER_TOKEN_URL, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${app.body.app_access_token}` },
    body: JSON.stringify({ grant_type: 'authorization_code', code }),
  })
  const accessToken = token.body.data?.access_token
  if (token.body.code !== 0 || !accessToken) throw providerError('Lark', token.body.msg || 'invalid or expired code')

  const info = await fetchJson<LarkAnswer<{ open_id?: string; name?: string; en_name?: string; email?: string; enterprise_email?: string }>>('Lark', LARK_USER_INFO_URL, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const user = info.body.data
  if (info.body.code !== 0 || !user?.open_id) throw providerError('Lark', info.body.msg || 'cannot read the user')
  return {
    id: user.open_id,
    username: user.en_name || user.name,
    displayName: user.name || user.en_name,
    email: user.email || user.enterprise_email || undefined,
  }
}
