/**
 * API key signatures: a generated key verifies (also from the isolate's memo of verified keys), a
 * changed tag or body does not, and a key stops verifying when the token secret changes — the memo
 * never answers for another secret.
 */
import { describe, expect, it } from 'vitest'
import { generateTokenKey, verifyTokenKey } from './token-key'

describe('token key signatures', () => {
  it('verify their own tag, under their own secret only', async () => {
    const key = await generateTokenKey('secret-one')
    expect(await verifyTokenKey(key, 'secret-one')).toBe(true)
    expect(await verifyTokenKey(key, 'secret-one')).toBe(true)
    expect(await verifyTokenKey(key, 'secret-two')).toBe(false)
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')
    expect(await verifyTokenKey(flipped, 'secret-one')).toBe(false)
    expect(await verifyTokenKey(`${key.startsWith('x') ? 'y' : 'x'}${key.slice(1)}`, 'secret-one')).toBe(false)
    expect(await verifyTokenKey(key, 'secret-one')).toBe(true)
  })
})
