import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'

const bind = (id: number, columns: string) => env.DB.prepare(`UPDATE users SET ${columns} WHERE id = ?`).bind(id).run()
const manageRows = (userId: number) =>
  env.DB.prepare("SELECT content, metadata FROM logs WHERE user_id = ? AND content LIKE '%unbound%'").bind(userId).all<{ content: string; metadata: string }>()

describe('admin view of sign-in methods', () => {
  it('lists every method with its value, Telegram marked as not a sign-in', async () => {
    const root = await setupRoot()
    const { id } = await signedInUser('alice')
    await bind(id, "github_id = '42', email = 'a@example.com', telegram_id = 777")
    const res = await root.get(`/api/user/${id}/sign_in_methods`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { type: 'email', bound: true, value: 'a@example.com', sign_in: true },
      { type: 'github', bound: true, value: '42', sign_in: true },
      { type: 'oidc', bound: false, value: '', sign_in: true },
      { type: 'wechat', bound: false, value: '', sign_in: true },
      { type: 'lark', bound: false, value: '', sign_in: true },
      { type: 'telegram', bound: true, value: '777', sign_in: false },
    ])
  })

  it('unbinds for the user with an audit row naming the admin', async () => {
    const root = await setupRoot()
    const { id } = await signedInUser('alice')
    await bind(id, "github_id = '42', telegram_id = 777")
    const res = await root.delete(`/api/user/${id}/sign_in_methods/github`)
    expect(res.status).toBe(200)
    expect(res.body.data.find((m: any) => m.type === 'github')).toMatchObject({ bound: false, value: '' })
    expect((await root.delete(`/api/user/${id}/sign_in_methods/telegram`)).status).toBe(200)
    const row = await env.DB.prepare('SELECT github_id, telegram_id FROM users WHERE id = ?').bind(id).first()
    expect(row).toEqual({ github_id: '', telegram_id: 0 })
    const audit = (await manageRows(id)).results
    expect(audit.map((r) => r.content)).toEqual(['root unbound github from alice', 'root unbound telegram from alice'])
    expect(JSON.parse(audit[0]!.metadata)).toMatchObject({ actor: 'root', unbound: 'github', user_id: id })
    const again = await root.delete(`/api/user/${id}/sign_in_methods/github`)
    expect(again.status).toBe(400)
    expect(again.body.success).toBe(false)
  })

  it('refuses to remove the last way in of an account without a password, with a clear message', async () => {
    const root = await setupRoot()
    const { id } = await signedInUser('carol')
    await bind(id, "password = '', wechat_id = 'oWx_only', telegram_id = 5")
    const refused = await root.delete(`/api/user/${id}/sign_in_methods/wechat`)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^Cannot unbind WeChat: it is the only way to sign in to this account/)
    expect((await env.DB.prepare('SELECT wechat_id FROM users WHERE id = ?').bind(id).first())!.wechat_id).toBe('oWx_only')
    expect((await manageRows(id)).results).toHaveLength(0)
  })

  it('keeps the rank rule: an admin manages lower ranks only, never a peer, root or themself here', async () => {
    const root = await setupRoot()
    const admin = await signedInUser('admin1')
    const peer = await signedInUser('admin2')
    const user = await signedInUser('dave')
    await env.DB.prepare('UPDATE users SET role = 10 WHERE id IN (?, ?)').bind(admin.id, peer.id).run()
    await env.DB.prepare("UPDATE users SET github_id = 'gh' || id").run()
    const rootId = (await root.get('/api/user/self')).body.data.id
    expect((await admin.client.get(`/api/user/${peer.id}/sign_in_methods`)).status).toBe(403)
    expect((await admin.client.delete(`/api/user/${peer.id}/sign_in_methods/github`)).status).toBe(403)
    expect((await admin.client.delete(`/api/user/${rootId}/sign_in_methods/github`)).status).toBe(403)
    expect((await admin.client.delete(`/api/user/${admin.id}/sign_in_methods/github`)).status).toBe(403)
    expect((await admin.client.delete(`/api/user/${user.id}/sign_in_methods/github`)).status).toBe(200)
    expect((await user.client.get(`/api/user/${peer.id}/sign_in_methods`)).status).toBe(403)
    expect((await admin.client.delete(`/api/user/${user.id}/sign_in_methods/passkey`)).status).toBe(400)
  })
})
