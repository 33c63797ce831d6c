/** Wire shapes of the sign-in flows: setup, login, register, the verification code and the password reset (bodies and query strings the console sends). */

/** Body of POST /api/user/login (`username` may be an email); answers the profile or a second-factor challenge. */
export interface Credentials {
  username: string
  password: string
}

/** Body of POST /api/setup: the root account, with the setup code when the deployment sets one. */
export interface SetupBody extends Credentials {
  code?: string
}

/** Body of POST /api/user/register; the code is needed when email verification is on, the invite code is optional. */
export interface RegisterBody extends Credentials {
  email: string
  verification_code: string
  aff_code: string
}

/** Answer of POST /api/user/register. */
export interface RegisteredUser {
  id: number
  username: string
}

/** Query of GET /api/verification: mail a code to the address ('bind' for an email bound from the profile). */
export interface VerificationRequest {
  email: string
  purpose?: 'register' | 'bind'
}

/** Query of GET /api/reset_password: mail a reset link to the address. */
export interface ResetRequest {
  email: string
}

/** Body of POST /api/user/reset: the link's email and token; answers the new password. */
export interface ResetConfirmBody {
  email: string
  token: string
}

/** The Cloudflare Turnstile answer, sent beside the login, register, verification and reset requests when the site asks for one. */
export interface WithTurnstile {
  turnstile?: string
}
