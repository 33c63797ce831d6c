-- Issue 36 (account security): each session remembers when it was last used (written at most once
-- every few minutes, worker/admin/auth/session.ts) and when its user last confirmed the password
-- for a sensitive action (step-up, worker/admin/auth/step-up.ts). Both are Unix seconds; 0 = never.
ALTER TABLE `sessions` ADD COLUMN `last_seen_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `sessions` ADD COLUMN `step_up_at` integer DEFAULT 0 NOT NULL;
