/**
 * TOTP two-factor sign-in through the API (issue 36): setup and confirmation, the pending sign-in
 * after the password (no session until the code), replayed and expired codes, single-use backup
 * codes, the five-wrong-codes lock, turning it off, and root's reset (audit row and mail).
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { browserClient, setupRoot, signedInUser } from '../../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../../test/test-smtp'
import { totpCode } from '../../lib/totp'
import { setTestClockOffset } from '../../lib/clock'
import { createToken } from '../../test/factories'
import { PENDING_COOKIE } from '../../accounts/second-factor'

const PASSWORD = 'user-password-1'
const code = (secret: string, offsetMs = 0) => totpCode(secret, Date.now() + offsetMs)

/** A user with TOTP on; returns the secret and backup codes the setup showed. */
async function userWithTotp(username: string) {
  const { client, id } = await signedInUser(username, PASSWORD)
  const setup = await client.post('/api/user/2fa/setup')
  expect(setup.status).toBe(200)
  const { secret, qr_code_data, backup_codes } = setup.body.data as { secret: string; qr_code_data: string; backup_codes: string[] }
  expect(qr_code_data).toMatch(new RegExp(`^otpauth://totp/.+:${username}\\?secret=${secret}&`))
  expect(backup_codes).toHaveLength(10)
  const enabled = await client.post('/api/user/2fa/enable', { code: await code(secret) })
  expect(enabled.status).toBe(200)
  expect(enabled.body.data).toEqual({ enabled: true, pending: false, backup_codes_remaining: 10 })
  return { client, id, secret, backupCodes: backup_codes }
}

async function passwordStep(username: string) {
  const client = await browserClient()
  const res = await client.post('/api/user/login', { username, password: PASSWORD })
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual({ require_2fa: true, methods: ['totp'] })
  expect(client.cookies.has('session')).toBe(false)
  expect(client.cookies.has(PENDING_COOKIE)).toBe(true)
  return client
}

describe('TOTP setup', () => {
  it('keeps the secret sealed, never shows it again, and confirms only with a right code', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('setter', PASSWORD)
    expect((await client.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, pending: false, backup_codes_remaining: 0 })
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data
    const stored = await env.DB.prepare('SELECT secret FROM two_factor WHERE user_id = ?').bind(id).first<{ secret: string }>()
    expect(stored!.secret).not.toContain(secret)
    const hashes = await env.DB.prepare('SELECT code_hash FROM two_factor_backup_codes WHERE user_id = ?').bind(id).all<{ code_hash: string }>()
    expect(hashes.results.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true)
    const status = await client.get('/api/user/2fa/status')
    expect(status.body.data).toEqual({ enabled: false, pending: true, backup_codes_remaining: 0 })
    expect(JSON.stringify(status.body)).not.toContain(secret)

    expect((await client.post('/api/user/2fa/enable', { code: await code(secret, 120_000) })).status).toBe(400)
    expect((await client.post('/api/user/2fa/enable', { code: await code(secret) })).status).toBe(200)
    expect((await client.post('/api/user/2fa/setup')).status).toBe(409)
    // Accounts without 2FA still sign in with the password alone.
    const plain = await signedInUser('plainuser', PASSWORD)
    expect((await plain.client.get('/api/user/self')).status).toBe(200)
  })
})

describe('sign-in with TOTP', () => {
  it('issues no session after the password; the code finishes it, bound to this browser', async () => {
    await setupRoot()
    const { secret } = await userWithTotp('alice')
    const client = await passwordStep('alice')
    expect((await client.get('/api/user/self')).status).toBe(401)
    // Another browser (no pending cookie) cannot finish it.
    const stranger = await browserClient()
    expect((await stranger.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(401)
    const done = await client.post('/api/user/login/2fa', { code: await code(secret, 30_000) })
    expect(done.status).toBe(200)
    expect(done.body.data.username).toBe('alice')
    expect(client.cookies.has(PENDING_COOKIE)).toBe(false)
    expect((await client.get('/api/user/self')).body.data.username).toBe('alice')
  })

  it('refuses a replayed code, an older one, and an expired one', async () => {
    await setupRoot()
    const { secret } = await userWithTotp('replayer')
    // The setup's confirmation used the current step's code: it never works again.
    const first = await passwordStep('replayer')
    const replay = await first.post('/api/user/login/2fa', { code: await code(secret) })
    expect(replay.status).toBe(400)
    expect(replay.body.message).toMatch(/already used/)
    expect((await first.post('/api/user/login/2fa', { code: await code(secret, -30_000) })).status).toBe(400)
    expect((await first.post('/api/user/login/2fa', { code: await code(secret, -90_000) })).status).toBe(400)
    expect((await first.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(200)
    const second = await passwordStep('replayer')
    expect((await second.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(400)
  })

  it('accepts each backup code once', async () => {
    await setupRoot()
    const { backupCodes } = await userWithTotp('backupuser')
    const first = await passwordStep('backupuser')
    expect((await first.post('/api/user/login/2fa', { code: backupCodes[3]!.toUpperCase() })).status).toBe(200)
    expect((await first.get('/api/user/2fa/status')).body.data.backup_codes_remaining).toBe(9)
    const second = await passwordStep('backupuser')
    expect((await second.post('/api/user/login/2fa', { code: backupCodes[3]! })).status).toBe(400)
    expect((await second.post('/api/user/login/2fa', { code: backupCodes[4]! })).status).toBe(200)
  })

  it('ends the pending sign-in after five wrong codes, even if the sixth is right', async () => {
    await setupRoot()
    const { secret } = await userWithTotp('guesser')
    const client = await passwordStep('guesser')
    const pending = client.cookies.get(PENDING_COOKIE)!
    const statuses: number[] = []
    for (const guess of ['000000', '111111', '222222', '333333', '444444']) statuses.push((await client.post('/api/user/login/2fa', { code: guess })).status)
    expect(statuses).toEqual([400, 400, 400, 400, 429])
    expect(client.cookies.has(PENDING_COOKIE)).toBe(false)
    client.cookies.set(PENDING_COOKIE, pending)
    expect((await client.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(401)
    expect(client.cookies.has('session')).toBe(false)
  })

  it('expires the pending sign-in', async () => {
    await setupRoot()
    const { secret } = await userWithTotp('slowpoke')
    const client = await passwordStep('slowpoke')
    await env.DB.prepare(`UPDATE single_use_secrets SET expires_at = 1 WHERE key LIKE '2fa-login:%'`).run()
    expect((await client.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(401)
  })
})

describe('a secret imported from new-api', () => {
  it('works as it came (plain base32) and is sealed on its first use', async () => {
    await setupRoot()
    const { id } = await signedInUser('migrated', PASSWORD)
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    await env.DB.prepare('INSERT INTO two_factor (user_id, secret, enabled, last_step, created_at) VALUES (?, ?, 1, 0, 0)').bind(id, `plain:${secret}`).run()
    const client = await passwordStep('migrated')
    expect((await client.post('/api/user/login/2fa', { code: await code(secret) })).status).toBe(200)
    const stored = await env.DB.prepare('SELECT secret FROM two_factor WHERE user_id = ?').bind(id).first<{ secret: string }>()
    expect(stored!.secret).not.toContain(secret)
    const again = await passwordStep('migrated')
    expect((await again.post('/api/user/login/2fa', { code: await code(secret, 30_000) })).status).toBe(200)
  })

  it('accepts an imported new-api backup code (bcrypt of XXXX-XXXX) once, in any case and without the dash', async () => {
    await setupRoot()
    const { id } = await signedInUser('migratedbackup', PASSWORD)
    const bcrypt = (await import('bcryptjs')).default
    await env.DB.prepare('INSERT INTO two_factor (user_id, secret, enabled, last_step, created_at) VALUES (?, ?, 1, 0, 0)').bind(id, 'plain:JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP').run()
    await env.DB.prepare('INSERT INTO two_factor_backup_codes (user_id, code_hash) VALUES (?, ?)')
      .bind(id, await bcrypt.hash('AB12-CD34', 4))
      .run()
    const client = await passwordStep('migratedbackup')
    expect((await client.post('/api/user/login/2fa', { code: 'zz99-zz99' })).status).toBe(400)
    expect((await client.post('/api/user/login/2fa', { code: 'ab12cd34' })).status).toBe(200)
    const again = await passwordStep('migratedbackup')
    expect((await again.post('/api/user/login/2fa', { code: 'AB12-CD34' })).status).toBe(400)
  })
})

describe('turning TOTP off and new backup codes', () => {
  it('needs a valid code; afterwards the password alone signs in again', async () => {
    await setupRoot()
    const { client, secret, backupCodes } = await userWithTotp('leaver')
    const fresh = await client.post('/api/user/2fa/backup_codes', { code: backupCodes[0]! })
    expect(fresh.status).toBe(200)
    const newCodes = fresh.body.data.backup_codes as string[]
    expect(newCodes).toHaveLength(10)
    expect((await client.post('/api/user/2fa/disable', { code: backupCodes[1]! })).status).toBe(400)
    expect((await client.post('/api/user/2fa/disable', { code: '123456' })).status).toBe(400)
    expect((await client.post('/api/user/2fa/disable', { code: await code(secret, 30_000) })).status).toBe(200)
    expect((await client.get('/api/user/2fa/status')).body.data.enabled).toBe(false)
    const again = await browserClient()
    const login = await again.post('/api/user/login', { username: 'leaver', password: PASSWORD })
    expect(login.body.data.username).toBe('leaver')
    expect(newCodes[0]).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/)
  })
})

describe('step-up with a second factor', () => {
  it('takes a TOTP code (once) in place of the password for a sensitive action', async () => {
    await setupRoot()
    const { client, id, secret } = await userWithTotp('stepper')
    const key = await createToken(id)
    const later = 11 * 60_000
    setTestClockOffset({ TEST_CLOCK: '1' }, later)
    try {
      const asked = await client.post(`/api/token/${key.id}/key`)
      expect(asked.status).toBe(403)
      expect(asked.body.data.factors).toEqual(['totp'])
      const now = await code(secret, later)
      expect((await client.post('/api/user/step_up', { code: now })).status).toBe(200)
      expect((await client.post(`/api/token/${key.id}/key`)).status).toBe(200)
      expect((await client.post('/api/user/step_up', { code: now })).status).toBe(400)
    } finally {
      setTestClockOffset({ TEST_CLOCK: '1' }, 0)
    }
  })
})

describe('root resets a user’s TOTP', () => {
  it('removes it, writes a manage log row and mails the user; admins cannot', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    const email = uniqueEmail('lostphone')
    const client = await browserClient()
    expect((await client.post('/api/user/register', { username: 'lostphone', password: PASSWORD, email })).status).toBe(200)
    expect((await client.post('/api/user/login', { username: 'lostphone', password: PASSWORD })).status).toBe(200)
    const id = (await client.get('/api/user/self')).body.data.id as number
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data
    expect((await client.post('/api/user/2fa/enable', { code: await code(secret) })).status).toBe(200)

    const { client: admin, id: adminId } = await signedInUser('someadmin', PASSWORD)
    expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
    expect((await admin.delete(`/api/user/${id}/2fa`)).status).toBe(403)

    const reset = await root.delete(`/api/user/${id}/2fa`)
    expect(reset.status).toBe(200)
    expect((await root.delete(`/api/user/${id}/2fa`)).status).toBe(400)
    expect((await root.delete('/api/user/99999/2fa')).status).toBe(404)
    const log = await env.DB.prepare(`SELECT content, metadata FROM logs WHERE user_id = ? AND content LIKE 'Two-factor%'`).bind(id).first<{ content: string; metadata: string }>()
    expect(log!.content).toBe('Two-factor sign-in of lostphone (totp) reset by root')
    expect(JSON.parse(log!.metadata)).toMatchObject({ action: '2fa_reset', actor: 'root' })
    const [mail] = (await mailsTo(email)).filter((m) => /two-factor/.test(m.subject))
    expect(mail!.text).toContain('"lostphone"')
    const login = await (await browserClient()).post('/api/user/login', { username: 'lostphone', password: PASSWORD })
    expect(login.body.data.username).toBe('lostphone')
  })
})
