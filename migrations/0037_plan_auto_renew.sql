-- Plan auto-renew (issue 33). A subscription bought through Stripe with auto-renew is backed by a
-- Stripe Subscription (its `sub_…` id; '' for every other subscription); `stripe_ended` = 1 once
-- Stripe deleted it (customer.subscription.deleted), after which it cannot be switched back on.
ALTER TABLE `subscriptions` ADD `stripe_subscription_id` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `stripe_ended` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `idx_subscriptions_stripe` ON `subscriptions` (`stripe_subscription_id`) WHERE `stripe_subscription_id` <> '';
--> statement-breakpoint
-- A renewal order extends the subscription it names (NULL: not a renewal) by one duration instead of
-- starting a new one. `renewal_key` makes it once (`stripe-invoice:<in_…>` for a Stripe cycle invoice,
-- `renew:<subscription>:<expires_at>` for a renewal order the cron placed); `renewed_from` is the
-- expiry the paid order extended (0: not applied yet), so the extension happens exactly once.
ALTER TABLE `orders` ADD `subscription_id` integer;
--> statement-breakpoint
ALTER TABLE `orders` ADD `renewal_key` text;
--> statement-breakpoint
ALTER TABLE `orders` ADD `renewed_from` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `idx_orders_renewal_key` ON `orders` (`renewal_key`);
--> statement-breakpoint
CREATE INDEX `idx_orders_subscription` ON `orders` (`subscription_id`, `status`) WHERE `subscription_id` IS NOT NULL;
