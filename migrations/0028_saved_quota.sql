-- Quota the response cache saved (issue 34): a cache hit's log row carries `saved_quota` in its
-- metadata; the wallets' write-behind and the rollup sum it per day × user × channel × model, and
-- the day × model summary keeps it for the site total, so dashboards never scan logs for it.
ALTER TABLE `statistics` ADD `saved_quota` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `statistics_models` ADD `saved_quota` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
DROP TRIGGER `statistics_summaries_insert`;
--> statement-breakpoint
DROP TRIGGER `statistics_summaries_update`;
--> statement-breakpoint
DROP TRIGGER `statistics_summaries_delete`;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_insert` AFTER INSERT ON `statistics` BEGIN
	INSERT INTO statistics_models (date, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens, saved_quota)
	VALUES (NEW.date, NEW.model_name, NEW.request_count, NEW.quota, NEW.prompt_tokens, NEW.completion_tokens, NEW.request_time, NEW.cached_tokens, NEW.saved_quota)
	ON CONFLICT (date, model_name) DO UPDATE SET
		request_count = request_count + excluded.request_count, quota = quota + excluded.quota,
		prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
		request_time = request_time + excluded.request_time, cached_tokens = cached_tokens + excluded.cached_tokens,
		saved_quota = saved_quota + excluded.saved_quota;
	INSERT INTO statistics_users (date, user_id, request_count, quota) VALUES (NEW.date, NEW.user_id, NEW.request_count, NEW.quota)
	ON CONFLICT (date, user_id) DO UPDATE SET request_count = request_count + excluded.request_count, quota = quota + excluded.quota;
END;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_update` AFTER UPDATE ON `statistics` BEGIN
	UPDATE statistics_models SET
		request_count = request_count - OLD.request_count, quota = quota - OLD.quota,
		prompt_tokens = prompt_tokens - OLD.prompt_tokens, completion_tokens = completion_tokens - OLD.completion_tokens,
		request_time = request_time - OLD.request_time, cached_tokens = cached_tokens - OLD.cached_tokens,
		saved_quota = saved_quota - OLD.saved_quota
	WHERE date = OLD.date AND model_name = OLD.model_name;
	UPDATE statistics_users SET request_count = request_count - OLD.request_count, quota = quota - OLD.quota
	WHERE date = OLD.date AND user_id = OLD.user_id;
	INSERT INTO statistics_models (date, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, cached_tokens, saved_quota)
	VALUES (NEW.date, NEW.model_name, NEW.request_count, NEW.quota, NEW.prompt_tokens, NEW.completion_tokens, NEW.request_time, NEW.cached_tokens, NEW.saved_quota)
	ON CONFLICT (date, model_name) DO UPDATE SET
		request_count = request_count + excluded.request_count, quota = quota + excluded.quota,
		prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
		request_time = request_time + excluded.request_time, cached_tokens = cached_tokens + excluded.cached_tokens,
		saved_quota = saved_quota + excluded.saved_quota;
	INSERT INTO statistics_users (date, user_id, request_count, quota) VALUES (NEW.date, NEW.user_id, NEW.request_count, NEW.quota)
	ON CONFLICT (date, user_id) DO UPDATE SET request_count = request_count + excluded.request_count, quota = quota + excluded.quota;
END;
--> statement-breakpoint
CREATE TRIGGER `statistics_summaries_delete` AFTER DELETE ON `statistics` BEGIN
	UPDATE statistics_models SET
		request_count = request_count - OLD.request_count, quota = quota - OLD.quota,
		prompt_tokens = prompt_tokens - OLD.prompt_tokens, completion_tokens = completion_tokens - OLD.completion_tokens,
		request_time = request_time - OLD.request_time, cached_tokens = cached_tokens - OLD.cached_tokens,
		saved_quota = saved_quota - OLD.saved_quota
	WHERE date = OLD.date AND model_name = OLD.model_name;
	UPDATE statistics_users SET request_count = request_count - OLD.request_count, quota = quota - OLD.quota
	WHERE date = OLD.date AND user_id = OLD.user_id;
END;
