/** TOTP against the published test vectors of RFC 6238 (appendix B, SHA-1) and the window rules. */
import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpCode, totpStep } from './totp'

// RFC 6238's SHA-1 seed, the ASCII string "12345678901234567890".
const SEED = base32Encode(new TextEncoder().encode('12345678901234567890'))

describe('TOTP', () => {
  it('matches the RFC 6238 SHA-1 vectors, truncated to 6 digits', async () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ]
    for (const [seconds, eight] of vectors) {
      expect(await totpCode(SEED, seconds * 1000)).toBe(eight.slice(-6))
      expect(await hotp(base32Decode(SEED)!, totpStep(seconds * 1000), 8)).toBe(eight)
    }
  })

  it('round-trips base32 and refuses other characters', () => {
    expect(SEED).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
    expect(new TextDecoder().decode(base32Decode(SEED.toLowerCase()))).toBe('12345678901234567890')
    expect(base32Decode('ABC1')).toBeUndefined()
  })

  it('accepts one step either side of now and nothing further', async () => {
    const now = 1111111111_000
    const step = totpStep(now)
    expect(await matchTotp(SEED, await totpCode(SEED, now - 30_000), now)).toBe(step - 1)
    expect(await matchTotp(SEED, await totpCode(SEED, now + 30_000), now)).toBe(step + 1)
    expect(await matchTotp(SEED, await totpCode(SEED, now - 60_000), now)).toBeUndefined()
    expect(await matchTotp(SEED, await totpCode(SEED, now + 60_000), now)).toBeUndefined()
    expect(await matchTotp(SEED, 'abcdef', now)).toBeUndefined()
  })

  it('never accepts a step at or before the last used one (replay)', async () => {
    const now = 1234567890_000
    const code = await totpCode(SEED, now)
    const step = await matchTotp(SEED, code, now)
    expect(step).toBe(totpStep(now))
    expect(await matchTotp(SEED, code, now, step)).toBeUndefined()
    expect(await matchTotp(SEED, await totpCode(SEED, now - 30_000), now, step)).toBeUndefined()
  })

  it('builds the otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('My Gateway', 'alice', SEED))
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.host).toBe('totp')
    expect(decodeURIComponent(uri.pathname)).toBe('/My Gateway:alice')
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: SEED, issuer: 'My Gateway', algorithm: 'SHA1', digits: '6', period: '30' })
  })
})
