/**
 * Single-use secrets (password-reset tokens, email verification codes, OAuth states) in the D1
 * table `single_use_secrets`. Consuming is one conditional `DELETE … RETURNING`, so of two
 * concurrent uses exactly one gets the value (KV get-then-delete let both win). A guessable
 * secret (a short code) counts wrong guesses and is refused after MAX_GUESSES, even when the next
 * guess is right. Expired rows are swept when a new secret is stored.
 */
export const MAX_GUESSES = 5

const now = () => Math.floor(Date.now() / 1000)

/** Stores (or replaces, with a fresh guess counter) `key` → `value` for `ttlSeconds`. */
export async function putSecret(db: D1Database, key: string, value: string, ttlSeconds: number): Promise<void> {
  const t = now()
  await db.batch([
    db.prepare('DELETE FROM single_use_secrets WHERE expires_at <= ?').bind(t),
    db
      .prepare('INSERT INTO single_use_secrets (key, value, expires_at, attempts) VALUES (?1, ?2, ?3, 0) ON CONFLICT(key) DO UPDATE SET value = ?2, expires_at = ?3, attempts = 0')
      .bind(key, value, t + ttlSeconds),
  ])
}

/** The live value without using it up (undefined when unknown or expired). */
export async function peekSecret(db: D1Database, key: string): Promise<string | undefined> {
  const row = await db.prepare('SELECT value FROM single_use_secrets WHERE key = ? AND expires_at > ?').bind(key, now()).first<{ value: string }>()
  return row?.value
}

/** Takes the value and removes it in one statement: only one caller ever gets it. */
export async function consumeSecret(db: D1Database, key: string): Promise<string | undefined> {
  const row = await db.prepare('DELETE FROM single_use_secrets WHERE key = ? AND expires_at > ? RETURNING value').bind(key, now()).first<{ value: string }>()
  return row?.value
}

/** Removes the value if it is still `value` (compare-and-delete); true when this call removed it. */
export async function consumeSecretIf(db: D1Database, key: string, value: string): Promise<boolean> {
  const row = await db.prepare('DELETE FROM single_use_secrets WHERE key = ? AND value = ? AND expires_at > ? RETURNING 1 AS hit').bind(key, value, now()).first<{ hit: number }>()
  return Boolean(row)
}

/**
 * A guess at a short secret: true (and the secret is gone) when `guess` equals it, it is live and
 * fewer than MAX_GUESSES wrong guesses came before; otherwise a wrong guess is counted.
 */
export async function guessSecret(db: D1Database, key: string, guess: string): Promise<boolean> {
  const hit = await db
    .prepare('DELETE FROM single_use_secrets WHERE key = ? AND value = ? AND expires_at > ? AND attempts < ? RETURNING 1 AS hit')
    .bind(key, guess, now(), MAX_GUESSES)
    .first<{ hit: number }>()
  if (hit) return true
  await db.prepare('UPDATE single_use_secrets SET attempts = attempts + 1 WHERE key = ?').bind(key).run()
  return false
}

export async function deleteSecret(db: D1Database, key: string): Promise<void> {
  await db.prepare('DELETE FROM single_use_secrets WHERE key = ?').bind(key).run()
}

/** The live value while fewer than MAX_GUESSES wrong guesses were counted (undefined otherwise). */
export async function peekGuessable(db: D1Database, key: string): Promise<string | undefined> {
  const row = await db.prepare('SELECT value FROM single_use_secrets WHERE key = ? AND expires_at > ? AND attempts < ?').bind(key, now(), MAX_GUESSES).first<{ value: string }>()
  return row?.value
}

/** Counts a wrong guess checked elsewhere; returns how many guesses are left (0: the secret is dead and removed). */
export async function countWrongGuess(db: D1Database, key: string): Promise<number> {
  const row = await db.prepare('UPDATE single_use_secrets SET attempts = attempts + 1 WHERE key = ? RETURNING attempts').bind(key).first<{ attempts: number }>()
  const left = MAX_GUESSES - (row?.attempts ?? MAX_GUESSES)
  if (left <= 0) await deleteSecret(db, key)
  return Math.max(0, left)
}
