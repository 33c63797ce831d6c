/**
 * API keys imported from one-api / one-hub (scripts/import) carry no signature of this gateway:
 * one-api's are 48 random characters, one-hub's newer ones 59 characters signed with that
 * instance's secret (`<sqids>_<43-char base64url HMAC>`), which cannot be re-checked here. Such a
 * key is accepted by lookup, and only when its token row is marked `imported`. To keep forged keys
 * cheap, the lookup is tried only for those two shapes and only while imported keys exist at all.
 */
import { onIsolateReset } from '../cache/isolate'

const ONE_API_KEY = /^[A-Za-z0-9]{48}$/
const ONE_HUB_SIGNED_KEY = /^[A-Za-z0-9]{15,}_[A-Za-z0-9_-]{43}$/

export function looksLikeImportedKey(key: string): boolean {
  return ONE_API_KEY.test(key) || (key.length === 59 && ONE_HUB_SIGNED_KEY.test(key))
}

const PRESENCE_TTL_MS = 60_000
let presence: { value: boolean; at: number } | undefined
onIsolateReset(() => (presence = undefined))

/** Look again at the next imported-shaped key (after an import: its keys work at once here). */
export function forgetImportedKeysPresence(): void {
  presence = undefined
}

/** Whether any imported key exists (one indexed row read per isolate per minute). */
export async function importedKeysPresent(env: Env): Promise<boolean> {
  if (presence && Date.now() - presence.at < PRESENCE_TTL_MS) return presence.value
  const row = await env.DB.prepare('SELECT 1 AS x FROM tokens WHERE imported = 1 LIMIT 1').first()
  presence = { value: row !== null, at: Date.now() }
  return presence.value
}
