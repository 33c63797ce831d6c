/**
 * Every KV key the gateway writes, in one place (versioned prefixes keep old data harmless).
 * One-time secrets (reset links, verification codes, OAuth states) are D1 rows: lib/single-use.ts.
 */
export const cacheKeys = {
  snapshot: (name: string) => `v1:snapshot:${name}`,
  token: (key: string) => `v1:token:${key}`,
  chatCache: (hash: string) => `v1:chat-cache:${hash}`,
  /** A stored Responses API answer and its conversation, per user; see relay/inbound/responses/store.ts. */
  storedResponse: (userId: number, id: string) => `v1:response:${userId}:${id}`,
  /** Password sign-in locked for an account, or for an account from one network (value: unlock time, ms); see accounts/login-guard.ts. */
  loginLock: (scope: string) => `v1:login-lock:${scope}`,
  /** Telegram one-time bind code (hashed) → user id, and the user's current code; see telegram/account.ts. */
  telegramBindCode: (codeHash: string) => `v1:tg-bind:${codeHash}`,
  telegramUserCode: (userId: number) => `v1:tg-bind-user:${userId}`,
  /** A bind asked for by a /start deep link, waiting for its button press (code hash and Telegram user). */
  telegramBindConfirm: (ref: string) => `v1:tg-bind-confirm:${ref}`,
  /** A Telegram update id already handled (webhook retries and replays are skipped). */
  telegramUpdate: (updateId: number) => `v1:tg-update:${updateId}`,
  /** Unix time of the last update the bot handled. */
  telegramLastUpdate: 'v1:tg-last-update',
  /** When a cron job that runs every N minutes last ran (ms); see cron/index.ts. */
  cronLastRun: (job: string) => `v1:cron:last:${job}`,
  /** The last run of each job of one cron trigger (JSON); see cron/cron-report.ts. */
  cronReport: (cron: string) => `v1:cron:report:${cron}`,
  /** The highest wallet_dead_letters id the alerts have announced; see notify/cron.ts. */
  notifyDeadLetterSeen: 'v1:notify:dead-letter-seen',
  /** The relay request and 5xx totals the last error-rate check saw (JSON); see notify/error-rate.ts. */
  notifyErrorRateSeen: 'v1:notify:error-rate-seen',
  /** When root was last told the log table passed 80 % of its budget (ms); see logs/log-retention.ts. */
  logBudgetNotice: 'v1:log-budget-notice',
  /** The 10-minute mark of a low-quota reminder per user and kind, by mail and by Telegram; see mail/quota-reminder.ts. */
  quotaRemindMail: (userId: number, kind: string) => `v1:quota-remind:${userId}:${kind}`,
  quotaRemindTelegram: (userId: number, kind: string) => `v1:quota-remind-tg:${userId}:${kind}`,
  /** When a verification code was last mailed to an address (the resend interval); see admin/auth/verification.ts. */
  verificationSent: (email: string) => `v1:verify-sent:${email.toLowerCase()}`,
  /** A console import in progress (its plan's session state); see admin/import/import-apply.ts. */
  /** An MCP tool server's tool list as last listed (server id and its row's update time); see channels/mcp-servers.ts. */
  mcpTools: (serverId: number, updated: number) => `v1:mcp-tools:${serverId}:${updated}`,
  /** An /mcp session its client ended with DELETE (signed ids are otherwise stateless); see mcp/mcp-session.ts. */
  mcpEndedSession: (sessionId: string) => `v1:mcp-ended:${sessionId}`,
  importSession: (importId: string) => `import:session:${importId}`,
}
