-- Per-token limits and budgets (issue 21 A); users hold the defaults for their tokens; groups gain a TPM.
ALTER TABLE `tokens` ADD `rpm_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `tokens` ADD `tpm_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `tokens` ADD `concurrency_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `tokens` ADD `budget_period` text DEFAULT '' NOT NULL;
ALTER TABLE `tokens` ADD `budget_quota` integer DEFAULT 0 NOT NULL;
ALTER TABLE `tokens` ADD `model_limits` text DEFAULT '{}' NOT NULL;
ALTER TABLE `users` ADD `rpm_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `users` ADD `tpm_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `users` ADD `concurrency_limit` integer DEFAULT 0 NOT NULL;
ALTER TABLE `users` ADD `budget_period` text DEFAULT '' NOT NULL;
ALTER TABLE `users` ADD `budget_quota` integer DEFAULT 0 NOT NULL;
ALTER TABLE `users` ADD `model_limits` text DEFAULT '{}' NOT NULL;
ALTER TABLE `user_groups` ADD `tpm` integer DEFAULT 0 NOT NULL;
