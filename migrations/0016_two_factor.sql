-- Issue 36: TOTP two-factor sign-in. One row per account that started a TOTP setup: the secret
-- sealed with the gateway's key (AES-GCM, worker/cache/seal.ts), whether it was confirmed with a
-- code, and the last time step a code was accepted for (a replayed code is refused). Backup codes
-- are stored as SHA-256 only and used once. Rerunnable: IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS `two_factor` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT 0 NOT NULL,
	`last_step` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `two_factor_backup_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `idx_two_factor_backup_codes_user` ON `two_factor_backup_codes` (`user_id`);
