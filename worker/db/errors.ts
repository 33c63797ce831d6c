/** Recognise D1/SQLite constraint failures so routes can answer 409 instead of 500. */
export function isUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? '') + String((err as Error)?.message ?? '')
  return /UNIQUE constraint failed/i.test(text)
}

/** The message for a second account with an address already in use (any case). */
export const EMAIL_TAKEN_MESSAGE = 'This email is already used by another account'

/** The unique index on lower(email) (migration 0011) refused a second account with this address. */
export function isEmailUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? '') + String((err as Error)?.message ?? '')
  return isUniqueViolation(err) && /idx_users_email_unique/.test(text)
}
