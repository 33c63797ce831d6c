-- A user's own notices (profile → My notices): the low-balance reminder mail (on by default: every
-- user with an email got it before this switch existed), and the API keys' budget notices (80 % and
-- 100 % of a period) by mail and on the bound Telegram chat, both off until the user opts in.
ALTER TABLE `users` ADD `notify_balance_email` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `notify_budget_email` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `notify_budget_telegram` integer DEFAULT 0 NOT NULL;
