-- Prompt tokens served from suppliers' prompt caches, per day × user × channel × model (cache-hit chart).
ALTER TABLE `statistics` ADD `cached_tokens` integer DEFAULT 0 NOT NULL;
