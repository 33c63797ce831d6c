import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { jsonResponse, mockProviders } from '../../test/oauth-provider-mock'

afterEach(() => vi.restoreAllMocks())

async function weChatOnlyUser() {
  const root = await setupRoot()
  await root.put('/api/option/', { options: { WeChatServerAddress: 'https://wechat.example.com', WeChatServerToken: 't', WeChatAuthEnabled: 'true' } })
  mockProviders({ 'https://wechat.example.com/': () => jsonResponse({ success: true, message: '', data: 'oWx_only' }) })
  const c = new TestClient()
  await c.get('/api/status')
  const login = await c.get('/api/oauth/wechat?code=111111')
  expect(login.status).toBe(200)
  return { client: c, id: login.body.data.id as number }
}

describe('unbinding a sign-in method', () => {
  it('unbinds when a password remains, and says when nothing is bound', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('alice')
    await env.DB.prepare("UPDATE users SET github_id = '42', lark_id = 'ou_1' WHERE id = ?").bind(id).run()
    const res = await client.post('/api/user/unbind', { type: 'github' })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Unbound')
    expect(res.body.data).toMatchObject({ github_id: '', lark_id: 'ou_1' })
    const again = await client.post('/api/user/unbind', { type: 'github' })
    expect(again.status).toBe(400)
    expect(again.body.message).toBe('No GitHub account is bound')
  })

  it('refuses to remove the last way to sign in of an account without a password', async () => {
    const { client, id } = await weChatOnlyUser()
    const refused = await client.post('/api/user/unbind', { type: 'wechat' })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^Cannot unbind WeChat: it is the only way to sign in/)
    expect((await client.get('/api/user/self')).body.data.wechat_id).toBe('oWx_only')

    // With an email bound the account can still be recovered by a reset mail.
    await env.DB.prepare("UPDATE users SET email = 'only@example.com' WHERE id = ?").bind(id).run()
    expect((await client.post('/api/user/unbind', { type: 'wechat' })).status).toBe(200)
    expect((await client.post('/api/user/unbind', { type: 'email' })).status).toBe(400)
  })

  it('validates the type and requires a signed-in user', async () => {
    await setupRoot()
    const { client } = await signedInUser('bob')
    const bad = await client.post('/api/user/unbind', { type: 'telegram' })
    expect(bad.status).toBe(400)
    expect(bad.body.data.fields.type).toBe('must be one of github, oidc, lark, wechat, email')
    const anon = new TestClient()
    await anon.get('/api/status')
    expect((await anon.post('/api/user/unbind', { type: 'github' })).status).toBe(401)
  })
})
