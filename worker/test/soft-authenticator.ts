/**
 * A software WebAuthn authenticator for worker tests: an EC P-256 key from WebCrypto, a
 * discoverable credential, and the bytes a real one sends (CBOR attestation object with `none`
 * attestation, authenticatorData, clientDataJSON, DER-encoded ES256 signatures). Each call can
 * lie about the origin, RP id or counter, so tests can prove the server refuses such answers.
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>

function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n]
  if (n < 0x100) return [(major << 5) | 24, n]
  if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff]
  return [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
}

/** The CBOR subset WebAuthn needs: integers, text, byte strings and maps. */
function cbor(v: Cbor): number[] {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v)
  if (typeof v === 'string') {
    const bytes = new TextEncoder().encode(v)
    return [...head(3, bytes.length), ...bytes]
  }
  if (v instanceof Uint8Array) return [...head(2, v.length), ...v]
  return [...head(5, v.size), ...[...v].flatMap(([k, x]) => [...cbor(k), ...cbor(x)])]
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data))
/** base64url of any byte view. */
const b64 = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b))
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]

/** WebCrypto's raw r‖s ECDSA signature as the DER SEQUENCE WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0
    while (i < b.length - 1 && b[i] === 0) i++
    const v = b.slice(i)
    return v[0]! & 0x80 ? [0x02, v.length + 1, 0, ...v] : [0x02, v.length, ...v]
  }
  const body = [...int(raw.slice(0, 32)), ...int(raw.slice(32))]
  return new Uint8Array([0x30, body.length, ...body])
}

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

export interface Lies {
  /** The origin written into clientDataJSON (default: the expected one). */
  origin?: string
  /** The RP id hashed into authenticatorData (default: the one in the options). */
  rpId?: string
  /** Sign counter to report (default: one more than the last). */
  counter?: number
  /** Report the user as verified (default true). */
  userVerified?: boolean
}

export class SoftAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16))
  counter = 0
  private userHandle = ''
  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create(): Promise<SoftAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair
    return new SoftAuthenticator(keys)
  }

  get id(): string {
    return b64(this.credentialId)
  }

  private async authData(rpId: string, lies: Lies, attested?: Uint8Array): Promise<Uint8Array> {
    this.counter = lies.counter ?? this.counter + 1
    const flags = FLAG_UP | (lies.userVerified === false ? 0 : FLAG_UV) | (attested ? FLAG_AT : 0)
    return new Uint8Array([...(await sha256(new TextEncoder().encode(rpId))), flags, ...u32(this.counter), ...(attested ?? [])])
  }

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** navigator.credentials.create() for these options, as seen from `origin`. */
  async register(options: PublicKeyCredentialCreationOptionsJSON, origin: string, lies: Lies = {}): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', this.keys.publicKey)) as ArrayBuffer)
    const cose = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, raw.slice(1, 33)],
      [-3, raw.slice(33, 65)],
    ])
    const attested = new Uint8Array([...new Uint8Array(16), this.credentialId.length >> 8, this.credentialId.length & 0xff, ...this.credentialId, ...cbor(cose)])
    const authData = await this.authData(lies.rpId ?? options.rp.id!, { ...lies, counter: lies.counter ?? 0 }, attested)
    const attestation = new Uint8Array(
      cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ])
      )
    )
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, lies.origin ?? origin)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestation),
        transports: ['internal'],
      },
    }
  }

  /** navigator.credentials.get() for these options (a discoverable credential: user handle included). */
  async assert(options: PublicKeyCredentialRequestOptionsJSON, origin: string, lies: Lies = {}): Promise<AuthenticationResponseJSON> {
    const authData = await this.authData(lies.rpId ?? options.rpId!, lies)
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, lies.origin ?? origin)
    const signed = new Uint8Array([...authData, ...(await sha256(clientDataJSON))])
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, signed))
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(derSignature(raw)),
        userHandle: this.userHandle || undefined,
      },
    }
  }
}
