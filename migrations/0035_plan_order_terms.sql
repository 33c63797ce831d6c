-- Plan orders freeze their terms (issue 33): the plan's terms and duration when the order was placed
-- (JSON of OrderedPlanTerms, shared/contract/plans.ts), so that a plan edited between ordering and
-- paying does not change what the buyer gets. NULL on top-ups and on plan orders placed before this
-- migration (those start with the plan's terms at payment time, as before).
ALTER TABLE `orders` ADD `plan_terms` text;
--> statement-breakpoint
-- The admin dashboard's plan sales: paid plan orders of a period (status, then paid_at range).
CREATE INDEX `idx_orders_plan_paid` ON `orders` (`status`, `paid_at`, `plan_id`) WHERE `plan_id` IS NOT NULL;
--> statement-breakpoint
-- The admin dashboard's active subscriptions per plan (a covering index of the count).
CREATE INDEX `idx_subscriptions_status_plan` ON `subscriptions` (`status`, `plan_id`, `expires_at`);
