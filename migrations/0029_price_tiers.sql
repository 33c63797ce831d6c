-- Prices that follow suppliers' price lists (issue 34): an optional long-context tier (JSON
-- {threshold_tokens, input, output}: the input/output ratios above that many prompt tokens) and a
-- fixed fee per request in quota units. Cache read/write ratios stay in `extra_ratios`.
ALTER TABLE `prices` ADD `tier` text;
--> statement-breakpoint
ALTER TABLE `prices` ADD `fee` integer DEFAULT 0 NOT NULL;
