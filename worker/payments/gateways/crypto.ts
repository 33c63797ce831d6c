/**
 * Cryptography the payment gateways share, all on Web Crypto: RSA keys from whatever the vendors
 * hand out (PKCS#8 or PKCS#1 PEM, bare base64 as Alipay's console shows, SPKI public keys, X.509
 * certificates — the subject key and serial read with a small DER walker), RSASSA-PKCS1-v1_5
 * SHA-256 sign/verify in base64, AES-256-GCM decryption (WeChat Pay notify), MD5 (Epay) and the
 * sorted `k=v&…` string that Epay and Alipay sign.
 */

const enc = new TextEncoder()
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const
const RSA_OID = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00]

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ''))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

export function bytesToBase64(bytes: ArrayBuffer | Uint8Array): string {
  const u = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  let bin = ''
  for (let i = 0; i < u.length; i += 0x8000) bin += String.fromCharCode(...u.subarray(i, i + 0x8000))
  return btoa(bin)
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
}

// ---- DER ---------------------------------------------------------------------------------------

interface Tlv {
  tag: number
  /** Offset of the value. */
  start: number
  end: number
  /** Offset of the tag (the whole element is bytes[offset, end)). */
  offset: number
}

function readTlv(bytes: Uint8Array, offset: number): Tlv {
  const tag = bytes[offset]
  let len = bytes[offset + 1]
  if (tag === undefined || len === undefined) throw new Error('DER: truncated')
  let start = offset + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4) throw new Error('DER: unsupported length')
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + (bytes[start + i] ?? 0)
    start += n
  }
  const end = start + len
  if (end > bytes.length) throw new Error('DER: truncated')
  return { tag, start, end, offset }
}

function children(bytes: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = []
  for (let at = parent.start; at < parent.end; ) {
    const t = readTlv(bytes, at)
    out.push(t)
    at = t.end
  }
  return out
}

function derLength(n: number): number[] {
  if (n < 0x80) return [n]
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return [0x80 | bytes.length, ...bytes]
}

function der(tag: number, ...parts: (number[] | Uint8Array)[]): Uint8Array {
  const body = parts.flatMap((p) => [...p])
  return new Uint8Array([tag, ...derLength(body.length), ...body])
}

/** PKCS#1 RSAPrivateKey → PKCS#8 PrivateKeyInfo. */
function pkcs1PrivateToPkcs8(pkcs1: Uint8Array): Uint8Array {
  return der(0x30, [0x02, 0x01, 0x00], der(0x30, RSA_OID), der(0x04, pkcs1))
}

/** PKCS#1 RSAPublicKey → SubjectPublicKeyInfo. */
function pkcs1PublicToSpki(pkcs1: Uint8Array): Uint8Array {
  return der(0x30, der(0x30, RSA_OID), der(0x03, [0x00], pkcs1))
}

export interface CertificateInfo {
  /** The certificate's serial number as upper-case hex (how WeChat Pay names its platform certificates). */
  serial: string
  spki: Uint8Array
}

/** The serial number and subject public key of an X.509 certificate (DER). */
export function readCertificate(cert: Uint8Array): CertificateInfo {
  const top = readTlv(cert, 0)
  const tbs = children(cert, top)[0]
  if (!tbs) throw new Error('certificate: no tbsCertificate')
  const fields = children(cert, tbs)
  // [0] version is optional: when present the serial follows it.
  const i = fields[0]?.tag === 0xa0 ? 1 : 0
  const serial = fields[i]
  const spki = fields[i + 5]
  if (!serial || !spki || serial.tag !== 0x02 || spki.tag !== 0x30) throw new Error('certificate: unexpected layout')
  let serialBytes = cert.subarray(serial.start, serial.end)
  while (serialBytes.length > 1 && serialBytes[0] === 0) serialBytes = serialBytes.subarray(1)
  return { serial: toHex(serialBytes).toUpperCase(), spki: cert.slice(spki.offset, spki.end) }
}

// ---- RSA keys ----------------------------------------------------------------------------------

function pemBlock(text: string): { label: string; der: Uint8Array } {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(text)
  if (m) return { label: m[1]!, der: base64ToBytes(m[2]!) }
  // Bare base64 (Alipay's key tool and console hand keys out like this).
  return { label: '', der: base64ToBytes(text.trim()) }
}

const keyCache = new Map<string, Promise<CryptoKey>>()

function cached(kind: string, text: string, load: () => Promise<CryptoKey>): Promise<CryptoKey> {
  const id = `${kind}:${text}`
  let key = keyCache.get(id)
  if (!key) {
    if (keyCache.size > 64) keyCache.clear()
    key = load()
    keyCache.set(id, key)
    key.catch(() => keyCache.delete(id))
  }
  return key
}

/** An RSA private key for SHA256withRSA signing: PKCS#8 or PKCS#1, PEM or bare base64. */
export function importRsaPrivateKey(text: string): Promise<CryptoKey> {
  return cached('private', text, async () => {
    const { label, der: bytes } = pemBlock(text)
    const pkcs8 = label === 'RSA PRIVATE KEY' ? pkcs1PrivateToPkcs8(bytes) : bytes
    try {
      return await crypto.subtle.importKey('pkcs8', pkcs8, RSA, false, ['sign'])
    } catch (err) {
      if (label) throw err
      return crypto.subtle.importKey('pkcs8', pkcs1PrivateToPkcs8(bytes), RSA, false, ['sign'])
    }
  })
}

/** An RSA public key for verification: SPKI or PKCS#1 (PEM or bare base64), or an X.509 certificate. */
export function importRsaPublicKey(text: string): Promise<CryptoKey> {
  return cached('public', text, async () => {
    const { label, der: bytes } = pemBlock(text)
    if (label === 'CERTIFICATE') return crypto.subtle.importKey('spki', readCertificate(bytes).spki, RSA, false, ['verify'])
    const spki = label === 'RSA PUBLIC KEY' ? pkcs1PublicToSpki(bytes) : bytes
    try {
      return await crypto.subtle.importKey('spki', spki, RSA, false, ['verify'])
    } catch (err) {
      if (label) throw err
      return crypto.subtle.importKey('spki', pkcs1PublicToSpki(bytes), RSA, false, ['verify'])
    }
  })
}

/** Whether `text` parses as an RSA private key (for config validation). */
export async function isRsaPrivateKey(text: string): Promise<boolean> {
  try {
    await importRsaPrivateKey(text)
    return true
  } catch {
    return false
  }
}

/** Whether `text` parses as an RSA public key or certificate (for config validation). */
export async function isRsaPublicKey(text: string): Promise<boolean> {
  try {
    await importRsaPublicKey(text)
    return true
  } catch {
    return false
  }
}

/** SHA256withRSA signature of `data`, base64. */
export async function rsaSign(privateKey: string, data: string): Promise<string> {
  return bytesToBase64(await crypto.subtle.sign(RSA, await importRsaPrivateKey(privateKey), enc.encode(data)))
}

/** Whether `signature` (base64) is a valid SHA256withRSA signature of `data`; false for malformed input. */
export async function rsaVerify(publicKey: string, data: string, signature: string): Promise<boolean> {
  try {
    return await crypto.subtle.verify(RSA, await importRsaPublicKey(publicKey), base64ToBytes(signature), enc.encode(data))
  } catch {
    return false
  }
}

// ---- symmetric and digests ---------------------------------------------------------------------

/** AES-256-GCM decryption: `ciphertext` is base64 with the 16-byte tag at its end. Undefined when it fails. */
export async function aesGcmDecrypt(key: string, nonce: string, ciphertext: string, associatedData: string): Promise<string | undefined> {
  try {
    const raw = enc.encode(key)
    if (raw.length !== 32) return undefined
    const k = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt'])
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: enc.encode(nonce), additionalData: enc.encode(associatedData), tagLength: 128 }, k, base64ToBytes(ciphertext))
    return new TextDecoder().decode(plain)
  } catch {
    return undefined
  }
}

/** Lower-case hex MD5 (workerd's Web Crypto offers MD5 for exactly such legacy protocols). */
export async function md5Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('MD5', enc.encode(text))))
}

/** The `k=v&…` string over the non-empty params, keys in byte order, values raw (Epay, Alipay). */
export function sortedQuery(params: Record<string, string | undefined>, skip: string[] = ['sign', 'sign_type']): string {
  return Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${params[k]}`)
    .join('&')
}
