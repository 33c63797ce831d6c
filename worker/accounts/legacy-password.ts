/**
 * Password hashes imported from one-api / one-hub are bcrypt (`$2a$…`). They are verified with
 * bcryptjs at sign-in, and the login route replaces them with this gateway's PBKDF2 hash after the
 * first successful sign-in, so each imported password is checked with bcrypt at most once.
 */
import bcrypt from 'bcryptjs'
import { verifyPassword } from '../lib/crypto'

const BCRYPT_HASH = /^\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}$/

export function isBcryptHash(stored: string | undefined | null): stored is string {
  return typeof stored === 'string' && BCRYPT_HASH.test(stored)
}

export function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  return bcrypt.compare(password, stored)
}

/** Checks a password against either kind of stored hash (e.g. the current password on a change). */
export function verifyStoredPassword(password: string, stored: string): Promise<boolean> {
  return isBcryptHash(stored) ? verifyBcrypt(password, stored) : verifyPassword(password, stored)
}
