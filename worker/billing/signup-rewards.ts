/**
 * Sign-up rewards against farming (issue 12): the new-user quota, the invitee's and the inviter's
 * invite rewards are decided at registration (the inviter's daily cap included) and held in
 * `pending_signup_rewards` until the new account verifies an email or tops up for the first time,
 * whichever comes first. Paying goes through the wallets' credit API under one idempotency key per
 * reward (`signup-reward:<id>`, `invitee-reward:<id>`, `invite-reward:<inviteeId>`), so triggers that
 * race or repeat pay exactly once; the row is removed only after the credits. An inviter disabled
 * by then earns nothing.
 *
 * An email pays once per mailbox (security finding 7): the mailbox (mail/mailbox.ts: `+tag` and
 * Gmail dots do not make a new one) is recorded in `signup_reward_emails` before paying, for good.
 * An account whose verified email already paid another account's rewards gets nothing for it; its
 * rewards stay held until its first top-up.
 */
import { nowSeconds } from '../lib/time'
import { mailboxOf } from '../mail/mailbox'
import { walletOf } from '../wallet/wallet-client'
import { LOG_TYPE } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'signup-rewards' })

export interface SignupRewards {
  newUser: number
  invitee: number
  inviterId: number
  inviterReward: number
}

interface PendingRow {
  user_id: number
  new_user: number
  invitee: number
  inviter_id: number
  inviter_reward: number
}

const USER_ENABLED = 1

/** What releases held rewards: a verified email address (once per mailbox), or a first top-up. */
export type RewardTrigger = { email: string } | 'top-up'

/** Records the mailbox as paying `userId`'s rewards; false when it already paid another account's. */
async function claimMailbox(env: Env, userId: number, email: string): Promise<boolean> {
  const mailbox = mailboxOf(email)
  const [, owner] = await env.DB.batch<{ user_id: number }>([
    env.DB.prepare('INSERT OR IGNORE INTO signup_reward_emails (email, user_id, created_at) VALUES (?, ?, ?)').bind(mailbox, userId, nowSeconds()),
    env.DB.prepare('SELECT user_id FROM signup_reward_emails WHERE email = ?').bind(mailbox),
  ])
  return owner?.results[0]?.user_id === userId
}

/** Keeps the rewards of a new account until it proves itself (nothing is stored when all are zero). */
export async function holdSignupRewards(env: Env, userId: number, r: SignupRewards): Promise<void> {
  if (r.newUser <= 0 && r.invitee <= 0 && r.inviterReward <= 0) return
  await env.DB.prepare('INSERT OR IGNORE INTO pending_signup_rewards (user_id, new_user, invitee, inviter_id, inviter_reward, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(userId, Math.max(0, r.newUser), Math.max(0, r.invitee), r.inviterId, Math.max(0, r.inviterReward), nowSeconds())
    .run()
}

async function credit(env: Env, userId: number, username: string, amount: number, key: string, content: string): Promise<boolean> {
  if (amount <= 0) return false
  const result = await walletOf(env, userId).credit({
    userId,
    amount,
    key,
    log: { type: LOG_TYPE.SYSTEM, createdAt: nowSeconds(), username, content },
  })
  if (!result.ok) throw new Error(`signup reward ${key} not credited: ${result.reason}`)
  return !result.duplicate
}

/**
 * Pays the held rewards of `userId` (email verified, or a first top-up). Safe to call on every such
 * event: without a held row it does nothing; with one, each reward is credited once. An email whose
 * mailbox already paid another account pays nothing and leaves the row held.
 */
export async function paySignupRewards(env: Env, userId: number, trigger: RewardTrigger): Promise<void> {
  const row = await env.DB.prepare('SELECT user_id, new_user, invitee, inviter_id, inviter_reward FROM pending_signup_rewards WHERE user_id = ?').bind(userId).first<PendingRow>()
  if (!row) return
  if (trigger !== 'top-up' && !(await claimMailbox(env, userId, trigger.email))) return
  const people = await env.DB.prepare('SELECT id, username, status FROM users WHERE id IN (?, ?)')
    .bind(userId, row.inviter_id)
    .all<{ id: number; username: string; status: number }>()
  const invitee = people.results.find((u) => u.id === userId)
  const inviter = row.inviter_id ? people.results.find((u) => u.id === row.inviter_id) : undefined
  if (invitee) {
    await credit(env, userId, invitee.username, row.new_user, `signup-reward:${userId}`, 'New user quota')
    if (inviter) {
      await credit(env, userId, invitee.username, row.invitee, `invitee-reward:${userId}`, `Invitee reward: registered with the invite code of ${inviter.username}`)
    }
    if (inviter && inviter.status === USER_ENABLED) {
      const paid = await credit(
        env,
        inviter.id,
        inviter.username,
        row.inviter_reward,
        `invite-reward:${userId}`,
        `Inviter reward: ${invitee.username} registered with your invite link`
      )
      if (paid) await env.DB.prepare('UPDATE users SET aff_quota = aff_quota + ? WHERE id = ?').bind(row.inviter_reward, inviter.id).run()
    }
  }
  await env.DB.prepare('DELETE FROM pending_signup_rewards WHERE user_id = ?').bind(userId).run()
}

/** Runs the payout without failing the caller's own action (a top-up, a binding); errors are logged. */
export async function paySignupRewardsQuietly(env: Env, userId: number, trigger: RewardTrigger): Promise<void> {
  try {
    await paySignupRewards(env, userId, trigger)
  } catch (err) {
    serverLog.error('signup rewards not paid yet', { user_id: userId, error: err })
  }
}
