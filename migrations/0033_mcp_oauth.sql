-- MCP tool servers may authenticate with an OAuth client-credentials grant (channels/mcp-oauth.ts):
-- `oauth` holds {"token_url","client_id","client_secret","scope"} as JSON, or NULL for none. The
-- secret is write-only like `headers`: the admin API shows only the other fields.
ALTER TABLE `mcp_servers` ADD `oauth` text;
