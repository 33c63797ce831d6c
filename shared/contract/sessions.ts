/**
 * Wire types of the profile's sessions section (GET /api/user/sessions) and of step-up
 * (POST /api/user/step_up). A session is addressed by `id`, a short prefix of the stored hash of its
 * cookie: it names the row without being the cookie or the stored hash itself.
 */

export interface SessionView {
  id: string
  /** "Chrome on Windows"; "Unknown device" when the agent says nothing useful. */
  device: string
  ip: string
  /** Unix seconds. */
  created_at: number
  /** Unix seconds; 0 when not seen since sign-in was recorded. */
  last_seen_at: number
  /** The session that made this request. */
  current: boolean
}

export interface SessionsList {
  sessions: SessionView[]
  /** Whether the account has a personal access token (its value is never shown again). */
  access_token: boolean
}

/** `data` of the 403 `step_up_required` answer. */
export interface StepUpRequiredData {
  code: 'step_up_required'
  /** `password`: ask for it; `no_password`: the account signs in with OAuth only, sign in again; `session_required`: an access token cannot step up. */
  reason: 'password' | 'no_password' | 'session_required'
  /** Second factors the account has set up besides the password (names of registered verifiers). */
  factors: string[]
}

export interface StepUpResult {
  /** Unix seconds until which sensitive actions pass without asking again. */
  until: number
}

/** Length of the public session id (hex characters of the stored hash). */
export const SESSION_PUBLIC_ID_LENGTH = 16
