-- Key pools, per-channel auto-disable overrides, per-key states with retest backoff, and the
-- history of channel/key status changes (issue 21, part B).
ALTER TABLE `channels` ADD `key_mode` text DEFAULT 'batch' NOT NULL;
--> statement-breakpoint
ALTER TABLE `channels` ADD `auto_disable_threshold` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `channels` ADD `auto_disable_window` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE `channel_key_states` (
	`channel_id` integer NOT NULL,
	`key_hash` text NOT NULL,
	`status` integer DEFAULT 3 NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`changed_at` integer DEFAULT 0 NOT NULL,
	`retest_at` integer DEFAULT 0 NOT NULL,
	`retests` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`channel_id`, `key_hash`)
);
--> statement-breakpoint
CREATE INDEX `idx_channel_key_states_retest` ON `channel_key_states` (`retest_at`);
--> statement-breakpoint
CREATE TABLE `channel_status_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`key_hash` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`status` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`request_id` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_channel_status_history_channel` ON `channel_status_history` (`channel_id`,`created_at`);
