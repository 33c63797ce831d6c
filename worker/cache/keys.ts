/** Every KV key the gateway writes, in one place (versioned prefixes keep old data harmless). */
export const cacheKeys = {
  snapshot: (name: string) => `v1:snapshot:${name}`,
  token: (key: string) => `v1:token:${key}`,
  chatCache: (hash: string) => `v1:chat-cache:${hash}`,
  /** A stored Responses API answer and its conversation, per user; see relay/inbound/responses/store.ts. */
  storedResponse: (userId: number, id: string) => `v1:response:${userId}:${id}`,
  /** Password sign-in locked for an account (value: unlock time, ms); see admin/auth/login-guard.ts. */
  loginLock: (accountHash: string) => `v1:login-lock:${accountHash}`,
  /** Telegram one-time bind code (hashed) → user id, and the user's current code; see telegram/account.ts. */
  telegramBindCode: (codeHash: string) => `v1:tg-bind:${codeHash}`,
  telegramUserCode: (userId: number) => `v1:tg-bind-user:${userId}`,
  /** A Telegram update id already handled (webhook retries and replays are skipped). */
  telegramUpdate: (updateId: number) => `v1:tg-update:${updateId}`,
  /** Unix time of the last update the bot handled. */
  telegramLastUpdate: 'v1:tg-last-update',
}
