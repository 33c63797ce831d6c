-- MCP tool servers (worker/channels/mcp-servers.ts): the Streamable HTTP servers whose tools the
-- gateway's /mcp endpoint aggregates. `headers` holds the admin's write-only auth headers (JSON);
-- `groups` the user groups that may use the server (JSON list, empty = every group).
CREATE TABLE `mcp_servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`groups` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`timeout_ms` integer DEFAULT 30000 NOT NULL,
	`free` integer DEFAULT false NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`updated_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_servers_name_unique` ON `mcp_servers` (`name`);
--> statement-breakpoint
-- An API key's MCP tool allowlist: a JSON list of patterns such as `calc__*` ('' or [] = every tool of its group).
ALTER TABLE `tokens` ADD `mcp_tools` text DEFAULT '' NOT NULL;
