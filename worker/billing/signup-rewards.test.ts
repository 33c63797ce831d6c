/**
 * Reward farming (issue 12): new-user and invite rewards are held until the new account verifies an
 * email or tops up for the first time, then paid exactly once (wallet idempotency keys), and an
 * inviter disabled by then earns nothing.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { configureTestSmtp, mailsTo, uniqueEmail } from '../test/test-smtp'
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
    await paySignupRewards(env, invitee.id)
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
    await Promise.all([paySignupRewards(env, invitee.id), paySignupRewards(env, invitee.id), paySignupRewards(env, invitee.id)])
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
})
