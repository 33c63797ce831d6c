/**
 * A passkey as the second factor (issue 36): the password step of an account with a passkey asks
 * for it (`methods`), the account's own passkey finishes the pending sign-in once, a foreign or
 * replayed assertion is a counted failure; Require2FAForAdmins counts a passkey; step-up accepts
 * one; root sees the factors and its reset removes the passkeys too.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { setTestClockOffset } from '../../lib/clock'
import { browserClient, setupRoot, signedInUser, type TestClient } from '../../test/client'
import { createToken } from '../../test/factories'
import { SoftAuthenticator } from '../../test/soft-authenticator'
import { PENDING_COOKIE } from '../../accounts/second-factor'

const ORIGIN = 'http://gateway.test'
const PASSWORD = 'user-password-1'

afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

async function addPasskey(client: TestClient) {
  const auth = await SoftAuthenticator.create()
  const options = await client.post('/api/user/passkey/register/options')
  const res = await client.post('/api/user/passkey/register', { name: 'Key', response: await auth.register(options.body.data, ORIGIN) })
  expect(res.status).toBe(200)
  return auth
}

async function passwordStep(username: string, methods: string[]) {
  const client = await browserClient()
  const res = await client.post('/api/user/login', { username, password: PASSWORD })
  expect(res.body.data).toEqual({ require_2fa: true, methods })
  expect(client.cookies.has('session')).toBe(false)
  expect(client.cookies.has(PENDING_COOKIE)).toBe(true)
  return client
}

/** Asks for the pending sign-in's options and answers them with `auth`. */
async function passkeyStep(client: TestClient, auth: SoftAuthenticator) {
  const options = await client.post('/api/user/login/2fa/passkey/options')
  expect(options.status).toBe(200)
  const response = await auth.assert(options.body.data, ORIGIN)
  return { options: options.body.data, response, res: await client.post('/api/user/login/2fa/passkey', { response }) }
}

describe('passkey as the second factor of a password sign-in', () => {
  it('asks an account with a passkey for it after the password, and the passkey finishes the sign-in once', async () => {
    await setupRoot()
    const { client: owner, id } = await signedInUser('pk2fa', PASSWORD)
    const auth = await addPasskey(owner)
    const client = await passwordStep('pk2fa', ['passkey'])
    const { options, response, res } = await passkeyStep(client, auth)
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: auth.id, type: 'public-key' })])
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id, username: 'pk2fa' })
    expect((await client.get('/api/user/self')).body.data.id).toBe(id)
    // The pending sign-in and its challenge are used up: the same assertion does nothing more.
    expect((await client.post('/api/user/login/2fa/passkey', { response })).status).toBe(401)
  })

  it('refuses another account’s passkey and a replayed assertion as counted failures; TOTP still works beside it', async () => {
    await setupRoot()
    const { client: owner } = await signedInUser('pkboth', PASSWORD)
    const mine = await addPasskey(owner)
    const { client: other } = await signedInUser('pkother', PASSWORD)
    const foreign = await addPasskey(other)
    const { secret } = (await owner.post('/api/user/2fa/setup')).body.data
    const { totpCode } = await import('../../lib/totp')
    expect((await owner.post('/api/user/2fa/enable', { code: await totpCode(secret, Date.now()) })).status).toBe(200)

    const client = await passwordStep('pkboth', ['totp', 'passkey'])
    const wrong = await passkeyStep(client, foreign)
    expect(wrong.res.status).toBe(400)
    expect(wrong.res.body.data.attempts_left).toBe(4)
    expect(client.cookies.has('session')).toBe(false)
    // An assertion of the right passkey for an old challenge is refused too.
    const stale = await mine.assert(wrong.options, ORIGIN)
    expect((await client.post('/api/user/login/2fa/passkey', { response: stale })).body.data.attempts_left).toBe(3)
    expect((await passkeyStep(client, mine)).res.status).toBe(200)

    const byCode = await passwordStep('pkboth', ['totp', 'passkey'])
    expect((await byCode.post('/api/user/login/2fa', { code: await totpCode(secret, Date.now() + 30_000) })).status).toBe(200)
  })

  it('has no passkey options without a pending sign-in, nor for an account without a passkey', async () => {
    await setupRoot()
    expect((await (await browserClient()).post('/api/user/login/2fa/passkey/options')).status).toBe(401)
    const { client: owner } = await signedInUser('totponly', PASSWORD)
    const { secret } = (await owner.post('/api/user/2fa/setup')).body.data
    const { totpCode } = await import('../../lib/totp')
    await owner.post('/api/user/2fa/enable', { code: await totpCode(secret, Date.now()) })
    const client = await passwordStep('totponly', ['totp'])
    expect((await client.post('/api/user/login/2fa/passkey/options')).status).toBe(400)
  })
})

describe('passkey counted as 2FA elsewhere', () => {
  it('lets an admin with only a passkey through Require2FAForAdmins; one without is still sent to set it up', async () => {
    const root = await setupRoot()
    const { client: admin, id: adminId } = await signedInUser('pkadmin', PASSWORD)
    const { client: bare, id: bareId } = await signedInUser('bareadmin', PASSWORD)
    for (const id of [adminId, bareId]) expect((await root.post('/api/user/manage', { id, action: 'promote' })).status).toBe(200)
    await addPasskey(admin)
    expect((await root.put('/api/option/', { key: 'Require2FAForAdmins', value: 'true' })).status).toBe(200)
    expect((await admin.get('/api/user/')).status).toBe(200)
    const refused = await bare.get('/api/user/')
    expect(refused.status).toBe(403)
    expect((refused.body as { code?: string }).code).toBe('2fa_setup_required')
  })

  it('steps up with a passkey assertion for this session; a replay or a wrong session is refused', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('pkstepup', PASSWORD)
    const auth = await addPasskey(client)
    const key = await createToken(id)
    setTestClockOffset({ TEST_CLOCK: '1' }, 11 * 60_000)
    const asked = await client.post(`/api/token/${key.id}/key`)
    expect(asked.status).toBe(403)
    expect(asked.body.data.factors).toEqual(['passkey'])

    // A second browser session of the same account (signed in with the passkey alone).
    const second = await browserClient()
    const signIn = await second.post('/api/user/passkey/login/options')
    expect((await second.post('/api/user/passkey/login', { response: await auth.assert(signIn.body.data, ORIGIN) })).status).toBe(200)

    const options = await client.post('/api/user/step_up/passkey/options')
    expect(options.status).toBe(200)
    const passkey = await auth.assert(options.body.data, ORIGIN)
    // The challenge belongs to the session that asked for it.
    expect((await second.post('/api/user/step_up', { passkey })).status).toBe(400)
    expect((await client.post('/api/user/step_up', { passkey })).status).toBe(200)
    expect((await client.post(`/api/token/${key.id}/key`)).status).toBe(200)
    expect((await client.post('/api/user/step_up', { passkey })).status).toBe(400)
    expect((await client.post('/api/user/step_up', { passkey, code: '123456' })).status).toBe(400)
  })

  it('shows root the factors of an account; the reset removes its passkeys so the password alone signs in', async () => {
    const root = await setupRoot()
    const { client: owner, id } = await signedInUser('pklost', PASSWORD)
    await addPasskey(owner)
    expect((await root.get(`/api/user/${id}/2fa`)).body.data).toEqual({ methods: ['passkey'], passkeys: 1 })
    expect((await owner.get(`/api/user/${id}/2fa`)).status).toBe(403)
    expect((await root.delete(`/api/user/${id}/2fa`)).status).toBe(200)
    expect((await root.get(`/api/user/${id}/2fa`)).body.data).toEqual({ methods: [], passkeys: 0 })
    const login = await (await browserClient()).post('/api/user/login', { username: 'pklost', password: PASSWORD })
    expect(login.body.data.username).toBe('pklost')
  })
})
