-- Issue 40: the manifest of log rows archived to R2 (worker/admin/logs/log-archive.ts). One row per
-- gzip NDJSON object; it is inserted in the same D1 batch that deletes the object's rows from
-- `logs`, so a row is always either in `logs` or in exactly one listed object. Objects in R2 that no
-- row names (a run that stopped between the upload and this batch) are never read.
CREATE TABLE IF NOT EXISTS `log_archives` (
	`key` text PRIMARY KEY NOT NULL,
	`from_ts` integer NOT NULL,
	`to_ts` integer NOT NULL,
	`min_id` integer NOT NULL,
	`max_id` integer NOT NULL,
	`rows` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `idx_log_archives_to` ON `log_archives` (`to_ts`, `from_ts`);
