/**
 * The users.email unique index (lower(email), migration 0011) as a 409: each user write that can
 * give a second account an address in use (admin edit, email binding, sign-up) maps the refusal to
 * `conflict()` itself, so the generic error renderer never needs to know the index.
 */
import { EMAIL_TAKEN_MESSAGE, isEmailUniqueViolation } from '../db/errors'
import { conflict } from '../lib/errors'

/** Awaits a user write; the email index refusing it becomes 409 with the one message. */
export async function refuseTakenEmail<T>(write: PromiseLike<T>): Promise<T> {
  try {
    return await write
  } catch (err) {
    if (isEmailUniqueViolation(err)) throw conflict(EMAIL_TAKEN_MESSAGE)
    throw err
  }
}
