-- Passkeys (WebAuthn discoverable credentials) of each account: the credential id and COSE public
-- key the authenticator registered, its signature counter (a counter that goes backwards is
-- refused), transports for the browser's hint, a name the owner chose, and when it was created and
-- last used. Rerunnable: IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS `passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text DEFAULT '' NOT NULL,
	`backed_up` integer DEFAULT false NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `idx_passkeys_credential` ON `passkeys` (`credential_id`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `idx_passkeys_user` ON `passkeys` (`user_id`);
