/**
 * The numeric codes the database stores and the management API sends (one-hub's values), in one
 * home for the worker and the console: roles, user / token / channel / redemption statuses, log types.
 */

export const ROLE = { GUEST: 0, USER: 1, ADMIN: 10, ROOT: 100 } as const
export type Role = (typeof ROLE)[keyof typeof ROLE]

export const USER_STATUS = { ENABLED: 1, DISABLED: 2 } as const

/** An API key switched on or off by its owner (expiry and exhaustion are computed, not stored). */
export const TOKEN_STATUS = { ENABLED: 1, DISABLED: 2 } as const
export type TokenStatus = (typeof TOKEN_STATUS)[keyof typeof TOKEN_STATUS]

/** 2 = disabled by an admin, 3 = by the relay's failure rules, 4 = by a failed channel test. */
export const CHANNEL_STATUS = { ENABLED: 1, MANUAL_DISABLED: 2, AUTO_DISABLED: 3, TEST_DISABLED: 4 } as const

export const REDEMPTION_STATUS = { UNUSED: 1, DISABLED: 2, REDEEMED: 3 } as const

/** A subscription to a plan (issue 33): running, past its expiry, or ended by an administrator. */
export const SUBSCRIPTION_STATUS = { ACTIVE: 1, EXPIRED: 2, REVOKED: 3 } as const

export const LOG_TYPE = { TOPUP: 1, CONSUME: 2, MANAGE: 3, SYSTEM: 4, ERROR: 5 } as const
/** Every log type, in filter order. */
export const LOG_TYPES = [LOG_TYPE.TOPUP, LOG_TYPE.CONSUME, LOG_TYPE.MANAGE, LOG_TYPE.SYSTEM, LOG_TYPE.ERROR] as const
