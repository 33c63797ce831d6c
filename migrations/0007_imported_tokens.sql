-- API keys imported from one-api / one-hub (scripts/import): they carry no signature of this
-- gateway, so the relay accepts them by lookup only when this flag is set (worker/relay/token-auth.ts).
ALTER TABLE `tokens` ADD `imported` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `idx_tokens_imported` ON `tokens` (`imported`) WHERE `imported` = 1;
