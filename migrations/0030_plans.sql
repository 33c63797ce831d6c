-- Subscription plans (issue 33): packages with usage windows that renew each hour/day/week/month,
-- sold through the payment gateways or granted by an administrator. `windows` and `models` are JSON
-- in the shapes of shared/contract/plans.ts. Prices are integer US cents, like top-up amounts.
CREATE TABLE `plans` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `name` text NOT NULL,
  `description` text DEFAULT '' NOT NULL,
  `price_cents` integer DEFAULT 0 NOT NULL,
  `duration_unit` text DEFAULT 'month' NOT NULL,
  `duration_count` integer DEFAULT 1 NOT NULL,
  `windows` text DEFAULT '[]' NOT NULL,
  `models` text DEFAULT '[]' NOT NULL,
  `group` text DEFAULT '' NOT NULL,
  `channel_tags` text DEFAULT '[]' NOT NULL,
  `allow_balance_fallback` integer DEFAULT 1 NOT NULL,
  `max_per_user` integer DEFAULT 0 NOT NULL,
  `priority` integer DEFAULT 0 NOT NULL,
  `published` integer DEFAULT 0 NOT NULL,
  `deleted` integer DEFAULT 0 NOT NULL,
  `created_at` integer DEFAULT 0 NOT NULL,
  `updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- One row per subscription a user holds. The plan's terms are copied in (`terms`, JSON of
-- PlanTerms) so that editing a plan never changes what a subscriber bought. `status`: 1 active,
-- 2 expired, 3 revoked. `source`: 'grant', 'order', 'redemption', 'default'. `key` makes a grant or
-- an order's credit idempotent.
CREATE TABLE `subscriptions` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `user_id` integer NOT NULL,
  `plan_id` integer NOT NULL,
  `terms` text NOT NULL,
  `status` integer DEFAULT 1 NOT NULL,
  `source` text DEFAULT 'grant' NOT NULL,
  `key` text NOT NULL,
  `starts_at` integer NOT NULL,
  `expires_at` integer DEFAULT 0 NOT NULL,
  `auto_renew` integer DEFAULT 0 NOT NULL,
  `previous_group` text DEFAULT '' NOT NULL,
  `created_by` integer DEFAULT 0 NOT NULL,
  `created_at` integer DEFAULT 0 NOT NULL,
  `updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idx_subscriptions_key` ON `subscriptions` (`key`);
--> statement-breakpoint
CREATE INDEX `idx_subscriptions_user_status` ON `subscriptions` (`user_id`, `status`);
--> statement-breakpoint
-- The subscription a consume row drew from (0: the balance). Σ of a window's rows = its use.
ALTER TABLE `logs` ADD `subscription_id` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `idx_logs_subscription_created` ON `logs` (`subscription_id`, `created_at`) WHERE `subscription_id` > 0;
