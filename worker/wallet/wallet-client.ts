/**
 * The one way the Worker reaches a user's wallet (user-wallet.ts): `walletOf(env, userId)` names
 * the user's UserWallet Durable Object and returns its typed RPC stub (inputs and results in
 * wallet-types.ts). Nothing else calls `env.WALLET` by name, so sharding, retries or metrics
 * change here once. A stub belongs to the request that made it: make one per request.
 */

/** The user's wallet: its typed RPC stub. */
export const walletOf = (env: Pick<Env, 'WALLET'>, userId: number) => env.WALLET.getByName(`user:${userId}`)

/** A user's wallet as callers hold it. */
export type Wallet = ReturnType<typeof walletOf>
