/**
 * API keys imported from one-api / one-hub (scripts/import) carry no signature of this gateway:
 * one-api's are 48 random characters, one-hub's newer ones 59 characters signed with that
 * instance's secret (`<sqids>_<43-char base64url HMAC>`), which cannot be re-checked here. Such a
 * key is accepted by lookup, and only when its token row is marked `imported`. To keep forged keys
 * cheap, the lookup is tried only for those two shapes (shared/contract/imported-keys.ts, shared
 * with the importer) and only while imported keys exist at all.
 */
import { onIsolateReset } from '../cache/isolate'

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
