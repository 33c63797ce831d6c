-- Payments: money as integer cents (order_amount, fee, discount, fixed_fee were floats), paid_at,
-- the checkout reference, soft delete of gateways and one order per gateway transaction.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gateway_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`trade_no` text NOT NULL,
	`gateway_no` text DEFAULT '' NOT NULL,
	`gateway_ref` text DEFAULT '' NOT NULL,
	`amount` integer NOT NULL,
	`order_amount` integer NOT NULL,
	`order_currency` text DEFAULT 'USD' NOT NULL,
	`quota` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL,
	`paid_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_orders`("id", "gateway_id", "user_id", "trade_no", "gateway_no", "amount", "order_amount", "order_currency", "quota", "fee", "discount", "status", "created_at", "updated_at") SELECT "id", "gateway_id", "user_id", "trade_no", "gateway_no", "amount", CAST(ROUND("order_amount" * 100) AS INTEGER), "order_currency", "quota", CAST(ROUND("fee" * 100) AS INTEGER), CAST(ROUND("discount" * 100) AS INTEGER), "status", "created_at", "updated_at" FROM `orders`;--> statement-breakpoint
DROP TABLE `orders`;--> statement-breakpoint
ALTER TABLE `__new_orders` RENAME TO `orders`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_trade_no_unique` ON `orders` (`trade_no`);--> statement-breakpoint
CREATE INDEX `idx_orders_user` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_orders_status` ON `orders` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_orders_gateway` ON `orders` (`gateway_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `idx_orders_gateway_no` ON `orders` (`gateway_id`,`gateway_no`) WHERE "orders"."gateway_no" <> '';--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`uuid` text NOT NULL,
	`name` text NOT NULL,
	`icon` text DEFAULT '' NOT NULL,
	`notify_domain` text DEFAULT '' NOT NULL,
	`fixed_fee` integer DEFAULT 0 NOT NULL,
	`percent_fee` real DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "type", "uuid", "name", "icon", "notify_domain", "fixed_fee", "percent_fee", "currency", "config", "sort", "enable", "created_at") SELECT "id", "type", "uuid", "name", "icon", "notify_domain", CAST(ROUND("fixed_fee" * 100) AS INTEGER), "percent_fee", "currency", "config", "sort", "enable", "created_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_uuid_unique` ON `payments` (`uuid`);--> statement-breakpoint
CREATE INDEX `idx_payments_sort` ON `payments` (`deleted_at`,`sort`);