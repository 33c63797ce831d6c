ALTER TABLE `users` ADD `telegram_notify` integer DEFAULT 0 NOT NULL;
