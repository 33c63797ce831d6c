CREATE TABLE `wallet_flushes` (
	`user_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `seq`)
);
