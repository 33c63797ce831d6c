/**
 * Credential lifecycle (issue 12): a password change or reset is told to the user by mail
 * (PasswordChangeMailEnabled, on by default); switched off, no mail goes out.
 */
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot } from '../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../test/test-smtp'

async function userWithEmail(name: string) {
  const root = await setupRoot()
  await configureTestSmtp(root)
  await root.put('/api/option/', { key: 'ServerAddress', value: 'https://gw.example.com/' })
  const email = uniqueEmail(name)
  const client = new TestClient()
  await client.get('/api/status')
  expect((await client.post('/api/user/register', { username: name, password: 'old-password-1', email })).status).toBe(200)
  expect((await client.post('/api/user/login', { username: name, password: 'old-password-1' })).status).toBe(200)
  return { root, client, email }
}

describe('password change notice', () => {
  it('mails the user when they change their password', async () => {
    const { client, email } = await userWithEmail('changer')
    expect((await client.put('/api/user/self', { password: 'new-password-2', original_password: 'old-password-1' })).status).toBe(200)
    const [mail] = await mailsTo(email)
    expect(mail!.subject).toMatch(/password changed$/)
    expect(mail!.text).toContain('"changer" was changed')
    expect(mail!.text).toContain('If this was not you')
  })

  it('mails the user when a reset link set a new password', async () => {
    const { email } = await userWithEmail('resetter')
    const anon = new TestClient()
    await anon.get('/api/status')
    await anon.get(`/api/reset_password?email=${encodeURIComponent(email)}`)
    const token = new URL(/https:\/\/\S+/.exec((await mailsTo(email))[0]!.text)![0]).searchParams.get('token')!
    expect((await anon.post('/api/user/reset', { email, token })).status).toBe(200)
    const notices = (await mailsTo(email)).filter((m) => /password reset$/.test(m.subject) && m.text.includes('was reset'))
    expect(notices).toHaveLength(1)
  })

  it('mails the user when an administrator sets their password', async () => {
    const { root, client, email } = await userWithEmail('adminset')
    const id = (await client.get('/api/user/self')).body.data.id as number
    const res = await root.put('/api/user/', { id, username: 'adminset', display_name: 'adminset', email, group: 'default', password: 'set-by-root-1' })
    expect(res.status).toBe(200)
    expect((await mailsTo(email)).filter((m) => /password changed$/.test(m.subject))).toHaveLength(1)
  })

  it('sends nothing when the setting is off', async () => {
    const { root, client, email } = await userWithEmail('quietone')
    expect((await root.put('/api/option/', { key: 'PasswordChangeMailEnabled', value: 'false' })).status).toBe(200)
    expect((await client.put('/api/user/self', { password: 'new-password-2', original_password: 'old-password-1' })).status).toBe(200)
    expect(await mailsTo(email)).toEqual([])
  })
})
