-- Day × model and day × user sums of the statistics rollup, kept by triggers on every write to
-- `statistics` (the wallets' write-behind, the cron recount, the importer), so the admin analytics
-- of a month read a few hundred rows instead of every day × user × channel × model row.
CREATE TABLE `statistics_models` (
	`date` text NOT NULL,
	`model_name` text NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`request_time` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`date`, `model_name`)
);
--> statement-breakpoint
CREATE TABLE `statistics_users` (
	`date` text NOT NULL,
	`user_id` integer NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`date`, `user_id`)
);
--> statement-breakpoint
-- Top users of a range: the sums come from the index alone.
CREATE INDEX `idx_statistics_users_cover` ON `statistics_users` (`date`, `user_id`, `quota`, `request_count`);
--> statement-breakpoint
INSERT INTO `statistics_models` (date, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens)
SELECT date, model_name, SUM(request_count), SUM(quota), SUM(prompt_tokens), SUM(completion_tokens), SUM(request_time), SUM(cached_tokens)
FROM `statistics` GROUP BY date, model_name;
--> statement-breakpoint
INSERT INTO `statistics_users` (date, user_id, request_count, quota)
SELECT date, user_id, SUM(request_count), SUM(quota) FROM `statistics` GROUP BY date, user_id;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_insert` AFTER INSERT ON `statistics` BEGIN
	INSERT INTO statistics_models (date, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens)
	VALUES (NEW.date, NEW.model_name, NEW.request_count, NEW.quota, NEW.prompt_tokens, NEW.completion_tokens, NEW.request_time, NEW.cached_tokens)
	ON CONFLICT (date, model_name) DO UPDATE SET
		request_count = request_count + excluded.request_count, quota = quota + excluded.quota,
		prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
		request_time = request_time + excluded.request_time, cached_tokens = cached_tokens + excluded.cached_tokens;
	INSERT INTO statistics_users (date, user_id, request_count, quota) VALUES (NEW.date, NEW.user_id, NEW.request_count, NEW.quota)
	ON CONFLICT (date, user_id) DO UPDATE SET request_count = request_count + excluded.request_count, quota = quota + excluded.quota;
END;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_update` AFTER UPDATE ON `statistics` BEGIN
	UPDATE statistics_models SET
		request_count = request_count - OLD.request_count, quota = quota - OLD.quota,
		prompt_tokens = prompt_tokens - OLD.prompt_tokens, completion_tokens = completion_tokens - OLD.completion_tokens,
		request_time = request_time - OLD.request_time, cached_tokens = cached_tokens - OLD.cached_tokens
	WHERE date = OLD.date AND model_name = OLD.model_name;
	UPDATE statistics_users SET request_count = request_count - OLD.request_count, quota = quota - OLD.quota
	WHERE date = OLD.date AND user_id = OLD.user_id;
	INSERT INTO statistics_models (date, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens)
	VALUES (NEW.date, NEW.model_name, NEW.request_count, NEW.quota, NEW.prompt_tokens, NEW.completion_tokens, NEW.request_time, NEW.cached_tokens)
	ON CONFLICT (date, model_name) DO UPDATE SET
		request_count = request_count + excluded.request_count, quota = quota + excluded.quota,
		prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
		request_time = request_time + excluded.request_time, cached_tokens = cached_tokens + excluded.cached_tokens;
	INSERT INTO statistics_users (date, user_id, request_count, quota) VALUES (NEW.date, NEW.user_id, NEW.request_count, NEW.quota)
	ON CONFLICT (date, user_id) DO UPDATE SET request_count = request_count + excluded.request_count, quota = quota + excluded.quota;
END;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_delete` AFTER DELETE ON `statistics` BEGIN
	UPDATE statistics_models SET
		request_count = request_count - OLD.request_count, quota = quota - OLD.quota,
		prompt_tokens = prompt_tokens - OLD.prompt_tokens, completion_tokens = completion_tokens - OLD.completion_tokens,
		request_time = request_time - OLD.request_time, cached_tokens = cached_tokens - OLD.cached_tokens
	WHERE date = OLD.date AND model_name = OLD.model_name;
	UPDATE statistics_users SET request_count = request_count - OLD.request_count, quota = quota - OLD.quota
	WHERE date = OLD.date AND user_id = OLD.user_id;
END;
