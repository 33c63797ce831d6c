import { afterEach, describe, expect, it, vi } from 'vitest'
import { setupRoot, signedInUser, browserClient } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'
import { LARK_APP_TOKEN_URL, LARK_USER_INFO_URL, LARK_USER_TOKEN_URL } from './providers/lark'

const WECHAT_SERVER = 'https://wechat.example.com'

afterEach(() => vi.restoreAllMocks())

function mockLark() {
  return mockProviders({
    [LARK_APP_TOKEN_URL]: (_req, body) => {
      const { app_id, app_secret } = JSON.parse(body)
      return app_id === 'cli_app' && app_secret === 'lark-secret'
        ? jsonResponse({ code: 0, msg: 'ok', app_access_token: 'app-token', expire: 7200 })
        : jsonResponse({ code: 10014, msg: 'app secret invalid' })
    },
    [LARK_USER_TOKEN_URL]: (req, body) => {
      if (req.headers.get('authorization') !== 'Bearer app-token') return jsonResponse({ code: 99991663, msg: 'app token invalid' })
      const { code, grant_type } = JSON.parse(body)
      if (grant_type !== 'authorization_code' || code !== 'lark-code') return jsonResponse({ code: 20003, msg: 'code is expired' })
      return jsonResponse({ code: 0, msg: 'success', data: { access_token: 'user-token', token_type: 'Bearer' } })
    },
    [LARK_USER_INFO_URL]: (req) =>
      req.headers.get('authorization') === 'Bearer user-token'
        ? jsonResponse({ code: 0, msg: 'success', data: { open_id: 'ou_7d8a6e6df7621556ce0d21922b676706', name: '张三', en_name: 'zhangsan', email: '' } })
        : jsonResponse({ code: 99991668, msg: 'user token invalid' }),
  })
}

describe('Lark login', () => {
  it('chains app token, user token and user info, then registers and logs in', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { LarkClientId: 'cli_app', LarkClientSecret: 'lark-secret', LarkAuthEnabled: 'true' } })
    const mock = mockLark()
    const c = await browserClient()
    const state = (await c.get('/api/oauth/state')).body.data
    const res = await c.get(`/api/oauth/lark?code=lark-code&state=${state}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Logged in', data: { username: 'zhangsan', display_name: '张三', lark_id: 'ou_7d8a6e6df7621556ce0d21922b676706' } })
    expect(mock.calls.map((call) => call.url)).toEqual([LARK_APP_TOKEN_URL, LARK_USER_TOKEN_URL, LARK_USER_INFO_URL])
  })

  it('reports an expired code and wrong app credentials as Lark login failures', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { LarkClientId: 'cli_app', LarkClientSecret: 'lark-secret', LarkAuthEnabled: 'true' } })
    mockLark()
    const c = await browserClient()
    const state = (await c.get('/api/oauth/state')).body.data
    const expired = await c.get(`/api/oauth/lark?code=old-code&state=${state}`)
    expect(expired.status).toBe(400)
    expect(expired.body.message).toBe('Lark login failed: code is expired')
    await root.put('/api/option/', { key: 'LarkClientSecret', value: 'rotated' })
    const creds = await c.get(`/api/oauth/lark?code=lark-code&state=${state}`)
    expect(creds.body.message).toBe('Lark login failed: app secret invalid')
  })

  it('is refused while Lark login is off', async () => {
    await setupRoot()
    const c = await browserClient()
    const state = (await c.get('/api/oauth/state')).body.data
    const res = await c.get(`/api/oauth/lark?code=lark-code&state=${state}`)
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Lark login is not enabled by the administrator')
  })
})

function mockWeChatServer() {
  return mockProviders({
    [`${WECHAT_SERVER}/api/wechat/user`]: (req) => {
      if (req.headers.get('authorization') !== 'wx-server-token') return jsonResponse({ success: false, message: 'unauthorized' }, 401)
      const code = new URL(req.url).searchParams.get('code')
      if (code === '500500') return new Response('upstream crashed', { status: 500 })
      return code === '123456' || code === '654321'
        ? jsonResponse({ success: true, message: '', data: code === '123456' ? 'oWx_openid_alpha' : 'oWx_openid_beta' })
        : jsonResponse({ success: false, message: 'verification code is wrong or expired' })
    },
  })
}

async function enableWeChat() {
  const root = await setupRoot()
  const res = await root.put('/api/option/', { options: { WeChatServerAddress: `${WECHAT_SERVER}/`, WeChatServerToken: 'wx-server-token', WeChatAuthEnabled: 'true' } })
  expect(res.status).toBe(200)
  return root
}

describe('WeChat login through the WeChat server', () => {
  it('logs in (registering first) with a code the server accepts, sending the server token', async () => {
    await enableWeChat()
    const mock = mockWeChatServer()
    const c = await browserClient()
    const res = await c.get('/api/oauth/wechat?code=123456')
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Logged in')
    expect(res.body.data.wechat_id).toBe('oWx_openid_alpha')
    expect(res.body.data.username).toMatch(/^wechat_/)
    expect(mock.calls[0]!.url).toBe(`${WECHAT_SERVER}/api/wechat/user?code=123456`)
    const again = await browserClient()
    expect((await again.get('/api/oauth/wechat?code=123456')).body.data.id).toBe(res.body.data.id)
  })

  it('refuses a wrong or expired code, and reports a broken server as 502', async () => {
    await enableWeChat()
    mockWeChatServer()
    const c = await browserClient()
    const wrong = await c.get('/api/oauth/wechat?code=000000')
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe('WeChat login failed: verification code is wrong or expired')
    expect((await c.get('/api/oauth/wechat?code=500500')).status).toBe(502)
    expect((await c.get('/api/oauth/wechat')).status).toBe(400)
    expect(c.cookies.has('session')).toBe(false)
  })

  it('binds WeChat to the signed-in user and refuses an openid bound elsewhere', async () => {
    await enableWeChat()
    mockWeChatServer()
    const { client: alice, id } = await signedInUser('alice')
    const bound = await alice.get('/api/oauth/wechat/bind?code=654321')
    expect(bound.status).toBe(200)
    expect(bound.body).toMatchObject({ message: 'bind', data: { id, wechat_id: 'oWx_openid_beta' } })
    const { client: bob } = await signedInUser('bob')
    expect((await bob.get('/api/oauth/wechat/bind?code=654321')).status).toBe(409)
    expect((await (await browserClient()).get('/api/oauth/wechat/bind?code=654321')).status).toBe(401)
  })

  it('is refused while WeChat login is off', async () => {
    await setupRoot()
    const c = await browserClient()
    expect((await c.get('/api/oauth/wechat?code=123456')).status).toBe(403)
  })
})
