-- Alerts (worker/notify/): where notices go, which events each sink takes, the (event, subject)
-- cool-down marks that deduplicate them, and one delivery row per notice and sink with its attempts.
-- `secret` is write-only (webhook HMAC key, DingTalk sign secret); the API returns only has_secret.
CREATE TABLE `notify_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`secret` text DEFAULT '' NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`events` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notify_marks` (
	`event` text NOT NULL,
	`subject` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`event`, `subject`)
);
--> statement-breakpoint
CREATE TABLE `notify_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`event` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`http_status` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`next_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notify_deliveries_channel` ON `notify_deliveries` (`channel_id`, `id`);
--> statement-breakpoint
CREATE INDEX `notify_deliveries_retry` ON `notify_deliveries` (`status`, `next_at`);
