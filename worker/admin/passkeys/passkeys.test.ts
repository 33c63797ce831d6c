import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { browserClient, setupRoot, signedInUser, type TestClient } from '../../test/client'
import { SoftAuthenticator, type Lies } from '../../test/soft-authenticator'

const ORIGIN = 'http://gateway.test'

/** Registers a fresh software passkey for the signed-in client; returns the authenticator and the answer. */
async function addPasskey(client: TestClient, name = 'Laptop', lies: Lies = {}) {
  const auth = await SoftAuthenticator.create()
  const options = await client.post('/api/user/passkey/register/options')
  expect(options.status).toBe(200)
  const response = await auth.register(options.body.data, ORIGIN, lies)
  const res = await client.post('/api/user/passkey/register', { name, response })
  return { auth, res, response }
}

/** A usernameless sign-in from a new browser; returns the client and the answer. */
async function passkeySignIn(auth: SoftAuthenticator, lies: Lies = {}) {
  const client = await browserClient()
  const options = await client.post('/api/user/passkey/login/options')
  expect(options.status).toBe(200)
  expect(options.body.data.allowCredentials ?? []).toEqual([])
  const response = await auth.assert(options.body.data, ORIGIN, lies)
  const res = await client.post('/api/user/passkey/login', { response })
  return { client, res, response }
}

describe('passkey registration and sign-in', () => {
  it('registers a discoverable passkey and signs in with it alone, with a fresh session cookie', async () => {
    await setupRoot()
    const { client: alice, id } = await signedInUser('alice')
    const options = await alice.post('/api/user/passkey/register/options')
    expect(options.body.data).toMatchObject({
      rp: { id: 'gateway.test' },
      user: { name: 'alice' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    })

    const { auth, res } = await addPasskey(alice, 'Work laptop')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ name: 'Work laptop', transports: ['internal'], last_used_at: 0 })
    expect(res.body.data).not.toHaveProperty('public_key')

    const signIn = await passkeySignIn(auth)
    expect(signIn.res.status).toBe(200)
    expect(signIn.res.body.data).toMatchObject({ id, username: 'alice' })
    expect(signIn.res.headers.getSetCookie().find((s) => s.startsWith('session='))).toMatch(/HttpOnly/)
    expect((await signIn.client.get('/api/user/self')).body.data.username).toBe('alice')

    const list = await signIn.client.get('/api/user/passkey')
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0].last_used_at).toBeGreaterThan(0)
    const row = await env.DB.prepare('SELECT counter FROM passkeys WHERE user_id = ?').bind(id).first<{ counter: number }>()
    expect(row!.counter).toBe(1)
  })

  it('uses each challenge once: a replayed registration or sign-in is refused', async () => {
    await setupRoot()
    const { client } = await signedInUser('bob')
    const { auth, response } = await addPasskey(client)
    const replayRegistration = await client.post('/api/user/passkey/register', { name: 'again', response })
    expect(replayRegistration.status).toBe(400)
    expect(replayRegistration.body.message).toMatch(/expired/)

    const { client: browser, response: assertion } = await passkeySignIn(auth)
    const replay = await browser.post('/api/user/passkey/login', { response: assertion })
    expect(replay.status).toBe(400)
    // Without the browser's ceremony cookie there is no challenge either.
    const other = await browserClient()
    expect((await other.post('/api/user/passkey/login', { response: assertion })).status).toBe(400)
  })

  it('refuses a registration or sign-in made for another origin or RP id', async () => {
    await setupRoot()
    const { client } = await signedInUser('carol')
    expect((await addPasskey(client, 'x', { origin: 'http://evil.test' })).res.status).toBe(400)
    expect((await addPasskey(client, 'x', { rpId: 'evil.test' })).res.status).toBe(400)
    expect((await addPasskey(client, 'x', { userVerified: false })).res.status).toBe(400)
    expect((await client.get('/api/user/passkey')).body.data).toEqual([])

    const { auth } = await addPasskey(client)
    const wrongOrigin = await passkeySignIn(auth, { origin: 'http://evil.test' })
    expect(wrongOrigin.res.status).toBe(401)
    expect((await wrongOrigin.client.get('/api/user/self')).status).toBe(401)
    expect((await passkeySignIn(auth, { rpId: 'evil.test' })).res.status).toBe(401)
    expect((await passkeySignIn(auth, { userVerified: false })).res.status).toBe(401)
    expect((await passkeySignIn(auth)).res.status).toBe(200)
  })

  it('takes the RP id and origin from ServerAddress when it is set', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { key: 'ServerAddress', value: 'https://console.example.com/' })
    const { client } = await signedInUser('dave')
    const options = await client.post('/api/user/passkey/register/options')
    expect(options.body.data.rp.id).toBe('console.example.com')
    const auth = await SoftAuthenticator.create()
    // The request's own host no longer counts.
    const fromRequestOrigin = await client.post('/api/user/passkey/register', { name: 'x', response: await auth.register(options.body.data, ORIGIN) })
    expect(fromRequestOrigin.status).toBe(400)
    const again = await client.post('/api/user/passkey/register/options')
    const good = await client.post('/api/user/passkey/register', { name: 'x', response: await auth.register(again.body.data, 'https://console.example.com') })
    expect(good.status).toBe(200)
  })

  it('refuses an assertion whose counter went backwards', async () => {
    await setupRoot()
    const { client } = await signedInUser('erin')
    const { auth } = await addPasskey(client)
    expect((await passkeySignIn(auth, { counter: 5 })).res.status).toBe(200)
    const cloned = await passkeySignIn(auth, { counter: 3 })
    expect(cloned.res.status).toBe(401)
    expect(cloned.res.body.message).toMatch(/counter/i)
    expect((await passkeySignIn(auth, { counter: 5 })).res.status).toBe(401)
    expect((await passkeySignIn(auth, { counter: 6 })).res.status).toBe(200)
  })

  it('refuses the passkey of a disabled account and an unknown credential', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('frank')
    const { auth } = await addPasskey(client)
    await env.DB.prepare('UPDATE users SET status = 2 WHERE id = ?').bind(id).run()
    const disabled = await passkeySignIn(auth)
    expect(disabled.res.status).toBe(403)
    expect((await disabled.client.get('/api/user/self')).status).toBe(401)
    expect((await passkeySignIn(await SoftAuthenticator.create())).res.status).toBe(401)
  })

  it('adds passkeys only from a browser session, not with an access token', async () => {
    await setupRoot()
    const { client } = await signedInUser('gina')
    const token = (await client.get('/api/user/token')).body.data as string
    const bearer = await browserClient()
    const res = await bearer.post('/api/user/passkey/register/options', undefined, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(403)
    expect((await bearer.get('/api/user/passkey', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
  })
})

describe('passkey list, rename and delete', () => {
  it('renames and deletes only the owner’s passkeys', async () => {
    await setupRoot()
    const { client: alice } = await signedInUser('alice')
    const { client: mallory } = await signedInUser('mallory')
    const { res } = await addPasskey(alice, 'Phone')
    const id = res.body.data.id as number

    expect((await mallory.put(`/api/user/passkey/${id}`, { name: 'mine now' })).status).toBe(404)
    expect((await mallory.delete(`/api/user/passkey/${id}`)).status).toBe(404)
    expect((await alice.get('/api/user/passkey')).body.data).toMatchObject([{ id, name: 'Phone' }])

    const bad = await alice.put(`/api/user/passkey/${id}`, { name: ' ' })
    expect(bad.status).toBe(400)
    expect(bad.body.data.fields).toHaveProperty('name')
    expect((await alice.put(`/api/user/passkey/${id}`, { name: 'Old phone' })).body.data.name).toBe('Old phone')
    expect((await alice.delete(`/api/user/passkey/${id}`)).status).toBe(200)
    expect((await alice.get('/api/user/passkey')).body.data).toEqual([])
    expect((await alice.delete(`/api/user/passkey/${id}`)).status).toBe(404)
  })

  it('goes with its account when an administrator deletes the user', async () => {
    const root = await setupRoot()
    const { client, id } = await signedInUser('ivan')
    const { auth } = await addPasskey(client)
    expect((await root.delete(`/api/user/${id}`)).status).toBe(200)
    const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?').bind(id).first<{ n: number }>()
    expect(row!.n).toBe(0)
    expect((await passkeySignIn(auth)).res.status).toBe(401)
  })

  it('a deleted passkey no longer signs in', async () => {
    await setupRoot()
    const { client } = await signedInUser('henry')
    const { auth, res } = await addPasskey(client)
    await client.delete(`/api/user/passkey/${res.body.data.id}`)
    expect((await passkeySignIn(auth)).res.status).toBe(401)
  })
})
