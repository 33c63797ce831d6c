/**
 * Passkeys (WebAuthn discoverable credentials) registered by users; written only by
 * worker/admin/passkeys/passkeys.service.ts. SQL: migrations/0017_passkeys.sql.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    /** base64url credential id, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key (never sent to the console). */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; a later assertion must not go backwards. */
    counter: integer('counter').notNull().default(0),
    /** Comma-separated transports (usb, nfc, ble, internal, hybrid). */
    transports: text('transports').notNull().default(''),
    /** Synced passkey (backup state flag at registration). */
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull().default(0),
  },
  (t) => [uniqueIndex('idx_passkeys_credential').on(t.credentialId), index('idx_passkeys_user').on(t.userId)]
)

export type Passkey = typeof passkeys.$inferSelect
