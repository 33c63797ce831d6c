/**
 * WeChat login through the configured WeChat server: the user reads a verification code from
 * the official account (valid 3 minutes on that server); we ask
 * `GET {WeChatServerAddress}/api/wechat/user?code=…` with `Authorization: {WeChatServerToken}`,
 * which answers `{success, message, data: openid}`.
 */
import type { Settings } from '../../../settings/store'
import type { ExternalIdentity } from '../accounts'
import { fetchJson, providerError } from '../provider-http'

export async function wechatIdentity(settings: Settings, code: string): Promise<ExternalIdentity> {
  const base = settings.str('WeChatServerAddress').trim().replace(/\/+$/, '')
  const answer = await fetchJson<{ success?: boolean; message?: string; data?: unknown }>('WeChat server', `${base}/api/wechat/user?code=${encodeURIComponent(code)}`, {
    headers: { authorization: settings.str('WeChatServerToken') },
  })
  const openid = answer.body.data
  if (!answer.body.success || typeof openid !== 'string' || openid === '') {
    throw providerError('WeChat', answer.body.message || 'invalid or expired verification code')
  }
  return { id: openid }
}
