/** Wire shapes of the second factor (issue 36): which factors an account has, for sign-in and root's reset. */

/** A second factor: a TOTP (or backup) code, or a passkey assertion. */
export type SecondFactorMethod = 'totp' | 'passkey'

/** `data` of a first-factor sign-in that needs a second factor: no session yet. */
export interface SecondFactorChallenge {
  require_2fa: true
  /** The factors this account can finish the sign-in with. */
  methods: SecondFactorMethod[]
}

/** GET /api/user/:id/2fa (root): the account's second factors, which DELETE /api/user/:id/2fa removes. */
export interface AdminTwoFactorView {
  methods: SecondFactorMethod[]
  passkeys: number
}
