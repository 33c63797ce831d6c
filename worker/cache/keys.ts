/** Every KV key the gateway writes, in one place (versioned prefixes keep old data harmless). */
export const cacheKeys = {
  snapshot: (name: string) => `v1:snapshot:${name}`,
  token: (key: string) => `v1:token:${key}`,
  chatCache: (hash: string) => `v1:chat-cache:${hash}`,
  /** Password sign-in locked for an account (value: unlock time, ms); see admin/auth/login-guard.ts. */
  loginLock: (accountHash: string) => `v1:login-lock:${accountHash}`,
}
