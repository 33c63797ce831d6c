/**
 * The TOTP second factor of an account: setup (a fresh sealed secret and ten backup codes), the
 * confirmation that turns it on, checking a code (TOTP or backup, each accepted once), new backup
 * codes, and removal. A TOTP code is accepted only for a time step after the last accepted one,
 * written with a conditional UPDATE, so two requests racing with one code cannot both pass.
 * Backup codes imported from new-api (`XXXX-XXXX`, stored as its bcrypt hash) are accepted too.
 */
import { and, count, eq, like, sql } from 'drizzle-orm'
import { createDb } from '../db/client'
import { twoFactor, twoFactorBackupCodes } from '../db/schema'
import { seal, unseal } from '../cache/seal'
import { randomString, sha256Hex } from '../lib/crypto'
import { ApiError } from '../lib/errors'
import { clockNow } from '../lib/clock'
import { nowSeconds } from '../lib/time'
import { matchTotp, newTotpSecret } from '../lib/totp'
import { isBcryptHash, verifyBcrypt } from './legacy-password'

export const BACKUP_CODE_COUNT = 10

export interface TwoFactorStatus {
  enabled: boolean
  /** A setup was started but not confirmed with a code yet. */
  pending: boolean
  backup_codes_remaining: number
}

const normaliseBackup = (code: string) => code.replace(/[\s-]/g, '').toLowerCase()
const backupHash = (userId: number, code: string) => sha256Hex(`2fa-backup:${userId}:${normaliseBackup(code)}`)

/** Ten fresh codes such as `k3f9a-x7b2q` (50 bits each); the previous ones stop working. */
async function replaceBackupCodes(env: Env, userId: number): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const raw = randomString(10).toLowerCase()
    return `${raw.slice(0, 5)}-${raw.slice(5)}`
  })
  const hashes = await Promise.all(codes.map((code) => backupHash(userId, code)))
  const db = createDb(env.DB)
  await db.batch([
    db.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, userId)),
    db.insert(twoFactorBackupCodes).values(hashes.map((codeHash) => ({ userId, codeHash }))),
  ])
  return codes
}

async function row(env: Env, userId: number) {
  const [found] = await createDb(env.DB).select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1)
  return found
}

export async function twoFactorEnabled(env: Env, userId: number): Promise<boolean> {
  return (await row(env, userId))?.enabled === true
}

export async function twoFactorStatus(env: Env, userId: number): Promise<TwoFactorStatus> {
  const found = await row(env, userId)
  const [left] = await createDb(env.DB)
    .select({ n: count() })
    .from(twoFactorBackupCodes)
    .where(and(eq(twoFactorBackupCodes.userId, userId), eq(twoFactorBackupCodes.usedAt, 0)))
  return { enabled: found?.enabled === true, pending: found?.enabled === false, backup_codes_remaining: found?.enabled ? (left?.n ?? 0) : 0 }
}

/** Starts (or restarts) a setup: the secret and backup codes are returned this once. 409 when already on. */
export async function startSetup(env: Env, userId: number): Promise<{ secret: string; backupCodes: string[] }> {
  if (await twoFactorEnabled(env, userId)) throw new ApiError(409, 'Two-factor sign-in is already on; turn it off first to set it up again')
  const secret = newTotpSecret()
  const sealed = await seal(env, secret)
  if (!sealed) throw new ApiError(500, 'The gateway has no sealing key yet')
  const values = { secret: sealed, enabled: false, lastStep: 0, createdAt: nowSeconds() }
  await createDb(env.DB)
    .insert(twoFactor)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: twoFactor.userId, set: values })
  return { secret, backupCodes: await replaceBackupCodes(env, userId) }
}

/** A secret imported from new-api (scripts/import) arrives as `plain:<base32>`: the importer has no sealing key. */
const IMPORTED_PREFIX = 'plain:'

/** Accepts a TOTP code once: true when it matches a step after the last accepted one (recorded atomically). */
async function useTotp(env: Env, userId: number, code: string): Promise<boolean> {
  const found = await row(env, userId)
  if (!found) return false
  const imported = found.secret.startsWith(IMPORTED_PREFIX)
  const secret = imported ? found.secret.slice(IMPORTED_PREFIX.length) : await unseal(env, found.secret)
  if (!secret) return false
  const step = await matchTotp(secret, code, clockNow(), found.lastStep)
  if (step === undefined) return false
  // An imported secret is sealed on its first use.
  const resealed = imported ? await seal(env, secret) : undefined
  const updated = await createDb(env.DB)
    .update(twoFactor)
    .set({ lastStep: step, ...(resealed ? { secret: resealed } : {}) })
    .where(and(eq(twoFactor.userId, userId), sql`${twoFactor.lastStep} < ${step}`))
    .returning({ userId: twoFactor.userId })
  return updated.length === 1
}

/** Marks one unused backup code row used; of two racing requests only one gets it. */
async function markUsed(env: Env, userId: number, where: ReturnType<typeof eq>): Promise<boolean> {
  const used = await createDb(env.DB)
    .update(twoFactorBackupCodes)
    .set({ usedAt: nowSeconds() })
    .where(and(eq(twoFactorBackupCodes.userId, userId), where, eq(twoFactorBackupCodes.usedAt, 0)))
    .returning({ id: twoFactorBackupCodes.id })
  return used.length === 1
}

/**
 * A backup code imported from new-api (scripts/import): new-api stores bcrypt of the code in its
 * `XXXX-XXXX` upper-case form; an account holds at most a few, each compared until one matches.
 */
async function useImportedBackupCode(env: Env, userId: number, normal: string): Promise<boolean> {
  const rows = await createDb(env.DB)
    .select({ id: twoFactorBackupCodes.id, codeHash: twoFactorBackupCodes.codeHash })
    .from(twoFactorBackupCodes)
    .where(and(eq(twoFactorBackupCodes.userId, userId), eq(twoFactorBackupCodes.usedAt, 0), like(twoFactorBackupCodes.codeHash, '$2%')))
  const form = `${normal.slice(0, 4)}-${normal.slice(4)}`.toUpperCase()
  for (const row of rows) {
    if (isBcryptHash(row.codeHash) && (await verifyBcrypt(form, row.codeHash))) return markUsed(env, userId, eq(twoFactorBackupCodes.id, row.id))
  }
  return false
}

async function useBackupCode(env: Env, userId: number, code: string): Promise<boolean> {
  if (/^[a-z0-9]{8}$/i.test(normaliseBackup(code))) return useImportedBackupCode(env, userId, normaliseBackup(code))
  if (!/^[a-z0-9]{10}$/i.test(normaliseBackup(code))) return false
  return markUsed(env, userId, eq(twoFactorBackupCodes.codeHash, await backupHash(userId, code)))
}

/** Turns the second factor on with a first code from the authenticator app. */
export async function confirmSetup(env: Env, userId: number, code: string): Promise<boolean> {
  const found = await row(env, userId)
  if (!found) throw new ApiError(400, 'Start the two-factor setup first')
  if (found.enabled) throw new ApiError(409, 'Two-factor sign-in is already on')
  if (!(await useTotp(env, userId, code))) return false
  await createDb(env.DB).update(twoFactor).set({ enabled: true }).where(eq(twoFactor.userId, userId))
  return true
}

/** Checks a second-factor code of an account with 2FA on: a TOTP code or an unused backup code, each used up. */
export async function useSecondFactorCode(env: Env, userId: number, code: string): Promise<boolean> {
  if (!(await twoFactorEnabled(env, userId))) return false
  const trimmed = code.trim()
  return /^\d{6}$/.test(trimmed) ? useTotp(env, userId, trimmed) : useBackupCode(env, userId, trimmed)
}

export async function newBackupCodes(env: Env, userId: number): Promise<string[]> {
  return replaceBackupCodes(env, userId)
}

/** Removes the second factor and its backup codes (turned off by the user, or reset by root). */
export async function removeTwoFactor(env: Env, userId: number): Promise<void> {
  const db = createDb(env.DB)
  await db.batch([db.delete(twoFactor).where(eq(twoFactor.userId, userId)), db.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, userId))])
}
