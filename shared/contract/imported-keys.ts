/**
 * The shape of API keys imported from one-api / one-hub: one-api's are 48 random characters,
 * one-hub's newer ones 59 characters signed with that instance's secret (`<sqids>_<43-char
 * base64url HMAC>`). The importer keeps such keys verbatim; the worker's key lookup
 * (worker/access/imported-keys.ts) tries the imported-key path only for these shapes.
 */
const ONE_API_KEY = /^[A-Za-z0-9]{48}$/
const ONE_HUB_SIGNED_KEY = /^[A-Za-z0-9]{15,}_[A-Za-z0-9_-]{43}$/

export function looksLikeImportedKey(key: string): boolean {
  return ONE_API_KEY.test(key) || (key.length === 59 && ONE_HUB_SIGNED_KEY.test(key))
}
