-- The audit trail of the management API: one row per state-changing call by an administrator or
-- root (who, which action on which target, a field-level diff with secrets as changed/unchanged).
CREATE TABLE `audit_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`actor_name` text DEFAULT '' NOT NULL,
	`actor_role` integer NOT NULL,
	`action` text NOT NULL,
	`target_type` text DEFAULT '' NOT NULL,
	`target_id` text DEFAULT '' NOT NULL,
	`diff` text,
	`method` text DEFAULT '' NOT NULL,
	`path` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`request_id` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_audit_created` ON `audit_logs` (`created_at`);
--> statement-breakpoint
CREATE INDEX `idx_audit_actor_created` ON `audit_logs` (`actor_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `idx_audit_action_created` ON `audit_logs` (`action`, `created_at`);
--> statement-breakpoint
CREATE INDEX `idx_audit_target_created` ON `audit_logs` (`target_type`, `target_id`, `created_at`);
