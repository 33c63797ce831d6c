/**
 * Sealing of KV snapshots that hold secrets (channel keys, SMTP/OAuth secrets, TokenSecret): AES-GCM
 * with a key derived from the Worker secret TOKEN_SECRET, or else from the TokenSecret kept in D1
 * (read straight from the options table, never from a snapshot). Without either, nothing is sealed
 * and the caller keeps the snapshot out of KV.
 */
import { config } from '../lib/env'
import { onIsolateReset } from './isolate'

let cached: { secret: string; key: CryptoKey } | undefined
onIsolateReset(() => {
  cached = undefined
})

async function sealKey(env: Env): Promise<CryptoKey | undefined> {
  const fromEnv = config(env).tokenSecret
  const secret = fromEnv || cached?.secret || (await env.DB.prepare(`SELECT value FROM options WHERE key = 'TokenSecret'`).first<{ value: string }>())?.value
  if (!secret) return undefined
  if (cached?.secret === secret) return cached.key
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`kv-snapshot-seal:${secret}`))
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])
  cached = { secret, key }
  return key
}

function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0))

/** `iv.ciphertext` (base64), or undefined when no sealing key exists yet. */
export async function seal(env: Env, plaintext: string): Promise<string | undefined> {
  const key = await sealKey(env)
  if (!key) return undefined
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext))
  return `${toBase64(iv)}.${toBase64(new Uint8Array(ct))}`
}

/** The plaintext, or undefined when the value cannot be opened (no key, other key, tampered). */
export async function unseal(env: Env, sealed: string): Promise<string | undefined> {
  const key = await sealKey(env)
  const [iv, ct] = sealed.split('.')
  if (!key || !iv || !ct) return undefined
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, key, fromBase64(ct))
    return new TextDecoder().decode(plain)
  } catch {
    return undefined
  }
}
