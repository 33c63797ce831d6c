/**
 * What the bot does with gateway accounts: one-time bind codes (made on the profile page, kept in
 * KV for 10 minutes), binding a Telegram user id to an account (typed with /bind, or from a /start
 * deep link only once the same Telegram user confirms: a link someone else made must not bind the
 * reader's Telegram to that person's account) and unbinding it, the balance text
 * (dollars or units per DisplayInCurrencyEnabled and QuotaPerUnit), redemption through the shared
 * redeem path, the user's keys (masked; a full key only on an explicit reveal, which is logged)
 * and the invitation summary.
 */
import { and, desc, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { tokens, users, type User } from '../db/schema'
import { cacheKeys } from '../cache/keys'
import { randomString, sha256Hex } from '../lib/crypto'
import { maskedKey, revealTokenKey } from '../access/key-reveal'
import { redeemCode } from '../billing/redeem'
import type { SessionUser } from '../env'
import type { TelegramConfig } from './config'
import { walletOf } from '../wallet/wallet-client'

export const BIND_CODE_TTL = 600
const USER_ENABLED = 1

export async function issueBindCode(env: Env, userId: number): Promise<{ code: string; expires_in: number }> {
  const previous = await env.CACHE.get(cacheKeys.telegramUserCode(userId))
  if (previous) await env.CACHE.delete(cacheKeys.telegramBindCode(previous))
  const code = randomString(20)
  const hash = await sha256Hex(code)
  await env.CACHE.put(cacheKeys.telegramBindCode(hash), String(userId), { expirationTtl: BIND_CODE_TTL })
  await env.CACHE.put(cacheKeys.telegramUserCode(userId), hash, { expirationTtl: BIND_CODE_TTL })
  return { code, expires_in: BIND_CODE_TTL }
}

export async function boundUser(env: Env, telegramId: number): Promise<User | undefined> {
  const [row] = await createDb(env.DB).select().from(users).where(eq(users.telegramId, telegramId)).limit(1)
  return row && row.status === USER_ENABLED ? row : undefined
}

export type BindOutcome = 'bound' | 'invalid_code' | 'already_bound' | 'telegram_taken' | 'account_taken'

const CODE_PATTERN = /^[A-Za-z0-9]{1,64}$/
const CONFIRM_REF_LENGTH = 16
export const CONFIRM_REF_PATTERN = /^bind:([A-Za-z0-9]{16})$/

interface IssuedCode {
  hash: string
  userId: number
}

/** The account a live bind code (by its hash) was issued for; the code is not spent. */
async function codeByHash(env: Env, hash: string): Promise<IssuedCode | undefined> {
  const userId = Number(await env.CACHE.get(cacheKeys.telegramBindCode(hash)))
  return Number.isSafeInteger(userId) && userId > 0 ? { hash, userId } : undefined
}

const codeOwner = async (env: Env, code: string) => (CODE_PATTERN.test(code) ? codeByHash(env, await sha256Hex(code)) : undefined)

/** Binds `telegramId` to the account the code was issued for; the code is spent on success. */
async function bindIssued(env: Env, telegramId: number, { hash, userId }: IssuedCode): Promise<{ outcome: BindOutcome; username?: string }> {
  const db = createDb(env.DB)
  const [other] = await db.select({ id: users.id }).from(users).where(eq(users.telegramId, telegramId)).limit(1)
  if (other) return { outcome: other.id === userId ? 'already_bound' : 'telegram_taken' }
  const [row] = await db
    .update(users)
    .set({ telegramId })
    .where(and(eq(users.id, userId), eq(users.telegramId, 0), eq(users.status, USER_ENABLED)))
    .returning({ username: users.username })
  if (!row) return { outcome: 'account_taken' }
  await env.CACHE.delete(cacheKeys.telegramBindCode(hash))
  await env.CACHE.delete(cacheKeys.telegramUserCode(userId))
  return { outcome: 'bound', username: row.username }
}

/** Binds with a code the Telegram user typed (/bind <code>). */
export async function bindWithCode(env: Env, telegramId: number, code: string): Promise<{ outcome: BindOutcome; username?: string }> {
  const issued = await codeOwner(env, code)
  return issued ? bindIssued(env, telegramId, issued) : { outcome: 'invalid_code' }
}

/**
 * A /start deep link's code binds nothing yet: it is kept under a random reference for the
 * Telegram user who sent it, and the bot asks that user to confirm the account by name. The
 * reference goes into the button, so the code itself never travels in callback data.
 */
export async function askToConfirmBind(env: Env, telegramId: number, code: string): Promise<{ ref: string; username: string } | undefined> {
  const owner = await codeOwner(env, code)
  if (!owner) return undefined
  const [user] = await createDb(env.DB).select({ username: users.username }).from(users).where(eq(users.id, owner.userId)).limit(1)
  if (!user) return undefined
  const ref = randomString(CONFIRM_REF_LENGTH)
  await env.CACHE.put(cacheKeys.telegramBindConfirm(ref), JSON.stringify({ hash: owner.hash, telegramId }), { expirationTtl: BIND_CODE_TTL })
  return { ref, username: user.username }
}

/** The button press: binds only for the Telegram user the question was asked of, with a code still valid. */
export async function confirmBind(env: Env, telegramId: number, ref: string): Promise<{ outcome: BindOutcome; username?: string }> {
  const pending = await env.CACHE.get<{ hash: string; telegramId: number }>(cacheKeys.telegramBindConfirm(ref), 'json')
  // Another Telegram user pressing (or replaying) the button binds nothing, and the question stays for its owner.
  const issued = pending && pending.telegramId === telegramId ? await codeByHash(env, pending.hash) : undefined
  if (!issued) return { outcome: 'invalid_code' }
  const result = await bindIssued(env, telegramId, issued)
  if (result.outcome === 'bound') await env.CACHE.delete(cacheKeys.telegramBindConfirm(ref))
  return result
}

export async function unbindTelegram(env: Env, userId: number): Promise<boolean> {
  const rows = await createDb(env.DB).update(users).set({ telegramId: 0 }).where(eq(users.id, userId)).returning({ id: users.id })
  return rows.length > 0
}

/** `$12.35` or `6,172,500 units`, per the display setting. */
export function formatQuota(cfg: Pick<TelegramConfig, 'displayInCurrency' | 'quotaPerUnit'>, quota: number): string {
  if (cfg.displayInCurrency) return `$${(quota / cfg.quotaPerUnit).toFixed(2)}`
  return `${quota.toLocaleString('en-US')} units`
}

export async function balanceOf(env: Env, user: User) {
  const b = await walletOf(env, user.id).balance({ userId: user.id })
  return { quota: b?.quota ?? user.quota, used: b?.usedQuota ?? user.usedQuota, requests: b?.requestCount ?? user.requestCount }
}

export const sessionOf = (u: User): SessionUser => ({ id: u.id, username: u.username, displayName: u.displayName, role: u.role, status: u.status, group: u.group })

export const recharge = (env: Env, user: User, code: string) => redeemCode(env, user, code, ' via Telegram')

export async function keysOf(env: Env, userId: number, limit = 20) {
  const rows = await createDb(env.DB)
    .select({ id: tokens.id, name: tokens.name, key: tokens.key, status: tokens.status })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.hidden, false)))
    .orderBy(desc(tokens.id))
    .limit(limit)
  return rows.map((t) => ({ id: t.id, name: t.name, status: t.status, masked: maskedKey(t.key) }))
}

/** The full key of the user's own token; logged like the console's reveal. */
export const revealKey = (env: Env, user: User, tokenId: number) => revealTokenKey(env, sessionOf(user), tokenId)

export function affSummary(cfg: TelegramConfig, user: User) {
  const link = user.affCode && cfg.serverAddress ? `${cfg.serverAddress}/register?aff=${user.affCode}` : ''
  return { code: user.affCode ?? '', link, invited: user.affCount, reward: user.affQuota }
}
