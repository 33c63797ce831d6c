/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second
 * steps, a code accepted one step either side of now. Secrets are 20 random bytes, shown to people
 * in RFC 4648 base32 and carried to authenticator apps as an `otpauth://totp/...` URI.
 */
export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
/** Steps accepted before and after the current one (clock drift of the phone). */
const DRIFT_STEPS = 1

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** Decodes base32 (case, spaces and padding ignored); undefined when it holds another character. */
export function base32Decode(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch)
    if (idx < 0) return undefined
    value = ((value << 5) | idx) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

/** A fresh 160-bit secret in base32 (RFC 4226 recommends 160 bits). */
export const newTotpSecret = () => base32Encode(crypto.getRandomValues(new Uint8Array(20)))

/** RFC 4226 HOTP value of `counter`, `digits` long with leading zeros. */
export async function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const msg = new DataView(new ArrayBuffer(8))
  msg.setUint32(0, Math.floor(counter / 2 ** 32))
  msg.setUint32(4, counter >>> 0)
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, msg.buffer))
  const offset = mac[mac.length - 1]! & 0x0f
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(bin % 10 ** digits).padStart(digits, '0')
}

export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS)

/** The code of the step holding `nowMs`. */
export async function totpCode(secret: string, nowMs: number): Promise<string> {
  const key = base32Decode(secret)
  if (!key) throw new Error('invalid TOTP secret')
  return hotp(key, totpStep(nowMs))
}

/**
 * The time step `code` belongs to, among now ±1 step and only after `lastStep` (a code already
 * used, or an older one, never matches again); undefined when none matches.
 */
export async function matchTotp(secret: string, code: string, nowMs: number, lastStep = -1): Promise<number | undefined> {
  const key = base32Decode(secret)
  if (!key || !/^\d{6}$/.test(code)) return undefined
  const now = totpStep(nowMs)
  let found: number | undefined
  // Every candidate is computed, so the time taken does not tell which step matched.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const expected = await hotp(key, step)
    if (expected === code && step > lastStep && found === undefined) found = step
  }
  return found
}

/** The key URI authenticator apps read from the QR code (Google Authenticator's format). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD_SECONDS) })
  return `otpauth://totp/${label}?${params.toString()}`
}
