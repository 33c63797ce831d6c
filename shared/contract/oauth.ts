/** Wire shapes of the external sign-in flows (/api/oauth/*) that the console reads beyond the user profile. */

/**
 * The data of an answer with message 'switch': a login held for confirmation (POST /api/oauth/switch
 * with the token). `target` null means confirming creates a new account.
 */
export interface PendingSwitch {
  pending_switch: string
  /** The signed-in user's name. */
  current: string
  target: string | null
  provider: 'github' | 'oidc' | 'lark' | 'wechat'
}
