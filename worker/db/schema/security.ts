/**
 * Account security: the TOTP second factor of an account and its single-use backup codes
 * (migrations/0016_two_factor.sql; worker/admin/two-factor owns the reads and writes).
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const twoFactor = sqliteTable('two_factor', {
  userId: integer('user_id').primaryKey(),
  /** The base32 secret sealed with AES-GCM (worker/cache/seal.ts); never sent back after setup. */
  secret: text('secret').notNull(),
  /** Confirmed with a code: sign-in asks for the second factor only then. */
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** The last TOTP time step a code was accepted for; codes of this step or older are refused. */
  lastStep: integer('last_step').notNull().default(0),
  createdAt: integer('created_at').notNull(),
})

export const twoFactorBackupCodes = sqliteTable(
  'two_factor_backup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    /** SHA-256 of the normalised code, salted with the user id. */
    codeHash: text('code_hash').notNull(),
    /** When it was used (0 = still valid). */
    usedAt: integer('used_at').notNull().default(0),
  },
  (t) => [index('idx_two_factor_backup_codes_user').on(t.userId)]
)
