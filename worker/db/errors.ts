/** Recognise D1/SQLite constraint failures so routes can answer 409 instead of 500. */
export function isUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? '') + String((err as Error)?.message ?? '')
  return /UNIQUE constraint failed/i.test(text)
}
