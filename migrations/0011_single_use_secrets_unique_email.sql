-- Issue 12: single-use secrets (reset tokens, verification codes, OAuth states) consumed by one
-- conditional statement, with a wrong-guess counter; and one account per email address
-- (case-insensitive, non-empty). Existing duplicates keep the address on the oldest account and
-- later ones are blanked (they can bind an address again).
CREATE TABLE `single_use_secrets` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_single_use_secrets_expires` ON `single_use_secrets` (`expires_at`);
--> statement-breakpoint
UPDATE `users` SET `email` = '' WHERE `email` != '' AND EXISTS (
	SELECT 1 FROM `users` AS `older` WHERE lower(`older`.`email`) = lower(`users`.`email`) AND `older`.`id` < `users`.`id`
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idx_users_email_unique` ON `users` (lower(`email`)) WHERE `email` != '';
