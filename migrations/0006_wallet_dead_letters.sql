-- Log rows a wallet could not write after repeated attempts (see worker/db/schema/logs.ts).
CREATE TABLE `wallet_dead_letters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`wallet_key` text NOT NULL,
	`payload` text NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_dead_letters_key` ON `wallet_dead_letters` (`user_id`,`wallet_key`);
