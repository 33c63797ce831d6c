/**
 * Reward farming (issue 12): new-user and invite rewards are held until the new account verifies an
 * email or tops up for the first time, then paid exactly once (wallet idempotency keys), and an
 * inviter disabled by then earns nothing. An email pays once per mailbox, however often it is
 * unbound and bound to another account, and `+tag` or Gmail spellings are the same mailbox
 * (security finding 7).
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../test/test-smtp'
import { createUser } from '../test/factories'
import { cacheKeys } from '../cache/keys'
import { mailboxOf } from '../mail/mailbox'
import { paySignupRewards } from './signup-rewards'

const REWARDS = { QuotaForNewUser: '100', QuotaForInvitee: '200', QuotaForInviter: '300' }

async function registered(username: string, affCode?: string, extra: Record<string, unknown> = {}) {
  const c = new TestClient()
  await c.get('/api/status')
  const reg = await c.post('/api/user/register', { username, password: 'password-123', ...(affCode ? { aff_code: affCode } : {}), ...extra })
  expect(reg.status).toBe(200)
  expect((await c.post('/api/user/login', { username, password: 'password-123' })).status).toBe(200)
  return { client: c, id: reg.body.data.id as number }
}

const quota = async (id: number) => (await env.DB.prepare('SELECT quota FROM users WHERE id = ?').bind(id).first<number>('quota'))!
const rewardLogs = async (ids: number[]) =>
  (
    await env.DB.prepare(`SELECT user_id, quota FROM logs WHERE type = 4 AND user_id IN (${ids.map(() => '?').join(',')}) ORDER BY id`)
      .bind(...ids)
      .all<{ user_id: number; quota: number }>()
  ).results

/** Binds `email` through the verification mail, as a user does. */
async function bindEmail(client: TestClient, email: string) {
  // Stands in for the 60-second resend guard, which an attacker simply waits out.
  await env.CACHE.delete(cacheKeys.verificationSent(email))
  expect((await client.get(`/api/verification?email=${encodeURIComponent(email)}&purpose=bind`)).status).toBe(200)
  const code = /verification code is: ([A-Z0-9]{6})/.exec((await mailsTo(email)).at(-1)!.text)![1]!
  expect((await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)).status).toBe(200)
}
const unbindEmail = async (client: TestClient) => expect((await client.post('/api/user/unbind', { type: 'email' })).status).toBe(200)
const loggedQuota = async (id: number) => (await env.DB.prepare('SELECT COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ?').bind(id).first<number>('q'))!
const held = async (id: number) => (await env.DB.prepare('SELECT COUNT(*) AS n FROM pending_signup_rewards WHERE user_id = ?').bind(id).first<number>('n'))!

async function topUp(root: TestClient, client: TestClient, amount: number) {
  const [code] = (await root.post('/api/redemption/', { name: 'gift', quota: amount, count: 1 })).body.data as string[]
  expect((await client.post('/api/user/topup', { key: code })).status).toBe(200)
}

describe('sign-up rewards', () => {
  it('holds the rewards of an unverified account and pays them at its first top-up, once', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: REWARDS })
    const inviter = await signedInUser('patron')
    const aff = (await inviter.client.get('/api/user/aff')).body.data as string
    const invitee = await registered('newbie', aff)
    // Nothing yet: a throwaway account earns nobody anything.
    expect(await quota(invitee.id)).toBe(0)
    expect(await quota(inviter.id)).toBe(0)
    expect((await inviter.client.get('/api/user/self')).body.data.aff_count).toBe(1)

    await topUp(root, invitee.client, 1000)
    expect(await quota(invitee.id)).toBe(1000 + 100 + 200)
    expect((await inviter.client.get('/api/user/self')).body.data).toMatchObject({ quota: 300, aff_quota: 300 })
    // A second top-up and a repeated payout change nothing more.
    await topUp(root, invitee.client, 10)
    await paySignupRewards(env, invitee.id, 'top-up')
    expect(await quota(invitee.id)).toBe(1310)
    expect(await quota(inviter.id)).toBe(300)
    expect(await rewardLogs([invitee.id, inviter.id])).toEqual([
      { user_id: invitee.id, quota: 100 },
      { user_id: invitee.id, quota: 200 },
      { user_id: inviter.id, quota: 300 },
    ])
  })

  it('pays exactly once when two triggers race', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: REWARDS })
    const inviter = await signedInUser('racer-patron')
    const aff = (await inviter.client.get('/api/user/aff')).body.data as string
    const invitee = await registered('racer', aff)
    await Promise.all([paySignupRewards(env, invitee.id, 'top-up'), paySignupRewards(env, invitee.id, { email: 'racer@example.com' }), paySignupRewards(env, invitee.id, 'top-up')])
    expect(await quota(invitee.id)).toBe(300)
    expect(await quota(inviter.id)).toBe(300)
    expect(await rewardLogs([invitee.id, inviter.id])).toHaveLength(3)
  })

  it('pays when the account binds a verified email', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: REWARDS })
    const { client, id } = await registered('binder')
    expect(await quota(id)).toBe(0)
    const email = uniqueEmail('binder')
    await client.get(`/api/verification?email=${encodeURIComponent(email)}&purpose=bind`)
    const code = /verification code is: ([A-Z0-9]{6})/.exec((await mailsTo(email))[0]!.text)![1]!
    const bound = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)
    expect(bound.status).toBe(200)
    expect(bound.body.data.quota).toBe(100)
  })

  it('pays at once when registration verified the email', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: { ...REWARDS, EmailVerificationEnabled: 'true' } })
    const anon = new TestClient()
    await anon.get('/api/status')
    const email = uniqueEmail('verified')
    await anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
    const code = /verification code is: ([A-Z0-9]{6})/.exec((await mailsTo(email))[0]!.text)![1]!
    const reg = await anon.post('/api/user/register', { username: 'verified', password: 'password-123', email, verification_code: code })
    expect(reg.status).toBe(200)
    expect(await quota(reg.body.data.id)).toBe(100)
  })

  it('an inviter disabled before the payout earns nothing; the invitee still gets theirs', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: REWARDS })
    const inviter = await signedInUser('fading-patron')
    const aff = (await inviter.client.get('/api/user/aff')).body.data as string
    const invitee = await registered('late-newbie', aff)
    expect((await root.post('/api/user/manage', { id: inviter.id, action: 'disable' })).status).toBe(200)
    await topUp(root, invitee.client, 1000)
    expect(await quota(invitee.id)).toBe(1300)
    expect(await quota(inviter.id)).toBe(0)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM pending_signup_rewards WHERE user_id = ?').bind(invitee.id).first<number>('n')).toBe(0)
  })

  it('pays once per mailbox: the same address, rebound on new accounts or with a +tag, pays nothing again', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: REWARDS })
    const inviter = await signedInUser('farm-patron')
    const aff = (await inviter.client.get('/api/user/aff')).body.data as string
    const email = uniqueEmail('farm')
    const [local, domain] = email.split('@')
    const first = await registered('farm-1', aff)
    await bindEmail(first.client, email)
    expect(await quota(first.id)).toBe(100 + 200)
    expect(await quota(inviter.id)).toBe(300)
    await unbindEmail(first.client)

    const later: number[] = []
    for (const [i, address] of [email, `${local}+2@${domain}`, `${local!.toUpperCase()}+x@${domain}`].entries()) {
      const next = await registered(`farm-${i + 2}`, aff)
      await bindEmail(next.client, address)
      expect(await quota(next.id)).toBe(0)
      await unbindEmail(next.client)
      later.push(next.id)
    }
    expect(await quota(inviter.id)).toBe(300)
    // Their rewards stay held (a top-up would still release them), and every balance equals its log rows.
    for (const id of later) expect(await held(id)).toBe(1)
    for (const id of [first.id, inviter.id, ...later]) expect(await loggedQuota(id)).toBe(await quota(id))
    expect(await env.DB.prepare('SELECT email, user_id FROM signup_reward_emails').all()).toMatchObject({ results: [{ email: mailboxOf(email), user_id: first.id }] })
  })

  it('counts Gmail dots and googlemail.com as the same mailbox', async () => {
    const root = await setupRoot()
    await configureTestSmtp(root)
    await root.put('/api/option/', { options: REWARDS })
    const local = `farmer${crypto.randomUUID().slice(0, 8)}`
    const first = await registered('gmail-1')
    await bindEmail(first.client, `${local}@gmail.com`)
    expect(await quota(first.id)).toBe(100)
    await unbindEmail(first.client)
    const second = await registered('gmail-2')
    await bindEmail(second.client, `${local.slice(0, 3)}.${local.slice(3)}@googlemail.com`)
    expect(await quota(second.id)).toBe(0)
  })

  it('migration 0015 takes the addresses bound today as used, spelled like mailboxOf, oldest account first', async () => {
    const addresses = ['Old.Timer+news@GoogleMail.com', 'oldtimer@gmail.com', 'plain+x@example.org', 'waiting@example.org']
    const ids: number[] = []
    for (const address of addresses) {
      const { id } = await createUser()
      // Bypasses the unique index on purpose: two spellings of one mailbox on two old accounts.
      await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(address, id).run()
      ids.push(id)
    }
    await env.DB.prepare('INSERT INTO pending_signup_rewards (user_id, new_user, created_at) VALUES (?, 100, 0)').bind(ids[3]).run()
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0015_'))!
    for (const query of migration.queries) await env.DB.prepare(query).run()
    const rows = (await env.DB.prepare('SELECT email, user_id FROM signup_reward_emails ORDER BY email').all<{ email: string; user_id: number }>()).results
    expect(rows).toEqual([
      { email: mailboxOf(addresses[0]!), user_id: ids[0] },
      { email: mailboxOf(addresses[2]!), user_id: ids[2] },
    ])
    expect(mailboxOf(addresses[1]!)).toBe(mailboxOf(addresses[0]!))
  })
})
