/** Every D1 table, re-exported for drizzle and for the migration generator. */
export * from './users'
export * from './tokens'
export * from './channels'
export * from './logs'
export * from './billing'
export * from './system'
export * from './security'
export * from './passkeys'
