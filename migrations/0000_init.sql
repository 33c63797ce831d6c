CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `idx_sessions_expires` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password` text DEFAULT '' NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`role` integer DEFAULT 1 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`avatar_url` text DEFAULT '' NOT NULL,
	`github_id` text DEFAULT '' NOT NULL,
	`oidc_id` text DEFAULT '' NOT NULL,
	`wechat_id` text DEFAULT '' NOT NULL,
	`lark_id` text DEFAULT '' NOT NULL,
	`telegram_id` integer DEFAULT 0 NOT NULL,
	`access_token` text,
	`quota` integer DEFAULT 0 NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`aff_code` text,
	`aff_count` integer DEFAULT 0 NOT NULL,
	`aff_quota` integer DEFAULT 0 NOT NULL,
	`inviter_id` integer DEFAULT 0 NOT NULL,
	`last_login_time` integer DEFAULT 0 NOT NULL,
	`last_login_ip` text DEFAULT '' NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_aff_code_unique` ON `users` (`aff_code`);--> statement-breakpoint
CREATE INDEX `idx_users_email` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `idx_users_access_token` ON `users` (`access_token`);--> statement-breakpoint
CREATE INDEX `idx_users_created_time` ON `users` (`created_time`);--> statement-breakpoint
CREATE INDEX `idx_users_inviter` ON `users` (`inviter_id`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`accessed_time` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT -1 NOT NULL,
	`remain_quota` integer DEFAULT 0 NOT NULL,
	`unlimited_quota` integer DEFAULT false NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`chat_cache` integer DEFAULT false NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`setting` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_key_unique` ON `tokens` (`key`);--> statement-breakpoint
CREATE INDEX `idx_tokens_user` ON `tokens` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `idx_tokens_name` ON `tokens` (`name`);--> statement-breakpoint
CREATE TABLE `abilities` (
	`group` text NOT NULL,
	`model` text NOT NULL,
	`channel_id` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL,
	PRIMARY KEY(`group`, `model`, `channel_id`)
);
--> statement-breakpoint
CREATE INDEX `idx_abilities_channel` ON `abilities` (`channel_id`);--> statement-breakpoint
CREATE INDEX `idx_abilities_model` ON `abilities` (`model`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer DEFAULT 1 NOT NULL,
	`key` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`status_reason` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	`base_url` text DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL,
	`balance` real DEFAULT 0 NOT NULL,
	`balance_updated_time` integer DEFAULT 0 NOT NULL,
	`test_time` integer DEFAULT 0 NOT NULL,
	`response_time` integer DEFAULT 0 NOT NULL,
	`test_model` text DEFAULT '' NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`model_mapping` text DEFAULT '' NOT NULL,
	`model_headers` text DEFAULT '' NOT NULL,
	`custom_parameter` text DEFAULT '' NOT NULL,
	`proxy` text DEFAULT '' NOT NULL,
	`only_chat` integer DEFAULT false NOT NULL,
	`auto_ban` integer DEFAULT true NOT NULL,
	`plugin` text DEFAULT '' NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_channels_tag` ON `channels` (`tag`);--> statement-breakpoint
CREATE INDEX `idx_channels_status` ON `channels` (`status`);--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`type` integer NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`token_name` text DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`model_name` text DEFAULT '' NOT NULL,
	`upstream_model` text DEFAULT '' NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`request_time` integer DEFAULT 0 NOT NULL,
	`first_response_time` integer DEFAULT 0 NOT NULL,
	`is_stream` integer DEFAULT false NOT NULL,
	`source_ip` text DEFAULT '' NOT NULL,
	`request_id` text DEFAULT '' NOT NULL,
	`metadata` text
);
--> statement-breakpoint
CREATE INDEX `idx_logs_created` ON `logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_user_created` ON `logs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_type_created` ON `logs` (`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_token_created` ON `logs` (`token_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_model_created` ON `logs` (`model_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_channel_created` ON `logs` (`channel_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_logs_username_created` ON `logs` (`username`,`created_at`);--> statement-breakpoint
CREATE TABLE `statistics` (
	`date` text NOT NULL,
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`model_name` text NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`request_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`date`, `user_id`, `channel_id`, `model_name`)
);
--> statement-breakpoint
CREATE INDEX `idx_statistics_user_date` ON `statistics` (`user_id`,`date`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gateway_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`trade_no` text NOT NULL,
	`gateway_no` text DEFAULT '' NOT NULL,
	`amount` integer NOT NULL,
	`order_amount` real NOT NULL,
	`order_currency` text DEFAULT 'USD' NOT NULL,
	`quota` integer NOT NULL,
	`fee` real DEFAULT 0 NOT NULL,
	`discount` real DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_trade_no_unique` ON `orders` (`trade_no`);--> statement-breakpoint
CREATE INDEX `idx_orders_user` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `idx_orders_status` ON `orders` (`status`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`uuid` text NOT NULL,
	`name` text NOT NULL,
	`icon` text DEFAULT '' NOT NULL,
	`notify_domain` text DEFAULT '' NOT NULL,
	`fixed_fee` real DEFAULT 0 NOT NULL,
	`percent_fee` real DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_uuid_unique` ON `payments` (`uuid`);--> statement-breakpoint
CREATE TABLE `prices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`model` text NOT NULL,
	`type` text DEFAULT 'tokens' NOT NULL,
	`channel_type` integer DEFAULT 0 NOT NULL,
	`input` real DEFAULT 0 NOT NULL,
	`output` real DEFAULT 0 NOT NULL,
	`locked` integer DEFAULT false NOT NULL,
	`extra_ratios` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prices_model_unique` ON `prices` (`model`);--> statement-breakpoint
CREATE TABLE `redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`key` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`redeemed_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `redemptions_key_unique` ON `redemptions` (`key`);--> statement-breakpoint
CREATE INDEX `idx_redemptions_name` ON `redemptions` (`name`);--> statement-breakpoint
CREATE INDEX `idx_redemptions_status` ON `redemptions` (`status`);--> statement-breakpoint
CREATE TABLE `user_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`symbol` text NOT NULL,
	`name` text NOT NULL,
	`ratio` real DEFAULT 1 NOT NULL,
	`api_rate` integer DEFAULT 600 NOT NULL,
	`public` integer DEFAULT false NOT NULL,
	`promotion` integer DEFAULT false NOT NULL,
	`min` integer DEFAULT 0 NOT NULL,
	`max` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_groups_symbol_unique` ON `user_groups` (`symbol`);--> statement-breakpoint
CREATE TABLE `midjourneys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` integer DEFAULT 0 NOT NULL,
	`user_id` integer NOT NULL,
	`action` text DEFAULT '' NOT NULL,
	`mj_id` text DEFAULT '' NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`prompt_en` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`progress` text DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`buttons` text DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL,
	`mode` text DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_mj_user` ON `midjourneys` (`user_id`,`submit_time`);--> statement-breakpoint
CREATE INDEX `idx_mj_mjid` ON `midjourneys` (`mj_id`);--> statement-breakpoint
CREATE TABLE `options` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` text NOT NULL,
	`platform` text NOT NULL,
	`user_id` integer NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`action` text DEFAULT '' NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`progress` text DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL,
	`data` text DEFAULT '' NOT NULL,
	`notify_hook` text DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_tasks_user` ON `tasks` (`user_id`,`submit_time`);--> statement-breakpoint
CREATE INDEX `idx_tasks_task_id` ON `tasks` (`task_id`);--> statement-breakpoint
CREATE TABLE `telegram_menus` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`command` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`parse_mode` text DEFAULT 'MarkdownV2' NOT NULL,
	`reply_message` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_menus_command_unique` ON `telegram_menus` (`command`);