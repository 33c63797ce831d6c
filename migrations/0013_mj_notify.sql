ALTER TABLE `midjourneys` ADD `notify_secret` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `notify_hook` text DEFAULT '' NOT NULL;
