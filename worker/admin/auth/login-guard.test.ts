/**
 * Brute force (security finding 9): failed passwords are counted per account whatever the address,
 * the account locks past the limit (even the right password waits), unknown usernames answer the
 * same way, and per-IP limits group IPv6 by /64.
 */
import { describe, expect, it } from 'vitest'
import { ipBucket } from '../../lib/cidr'
import { ROOT, TestClient, setupRoot, signedInUser } from '../../test/client'
import { FAILURE_LIMIT, verifyOrDummy } from './login-guard'

const from = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } })

async function attempt(username: string, password: string, ip: string) {
  const client = new TestClient()
  await client.get('/api/status')
  return client.post('/api/user/login', { username, password }, from(ip))
}

describe('login guard', () => {
  it('locks an account after failures spread over many addresses, and leaves other accounts alone', async () => {
    await setupRoot()
    await signedInUser('bystander')
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await attempt(ROOT.username, `wrong-${i}`, `2001:db8:${i.toString(16)}::1`)).status)
    expect(statuses.slice(0, FAILURE_LIMIT)).toEqual(Array(FAILURE_LIMIT).fill(401))
    expect(statuses.slice(FAILURE_LIMIT)).toEqual(Array(30 - FAILURE_LIMIT).fill(429))
    const right = await attempt(ROOT.username, ROOT.password, '198.51.100.9')
    expect(right.status).toBe(429)
    expect(right.body.message).toMatch(/try again in \d+ minute/)
    // The lock is per account: another user still signs in from the same addresses.
    expect((await attempt('bystander', 'user-password-1', '2001:db8:1::1')).status).toBe(200)
    // Case does not make another account.
    expect((await attempt('ROOT', ROOT.password, '198.51.100.9')).status).toBe(429)
  })

  it('answers unknown usernames like wrong passwords, and counts them too', async () => {
    await setupRoot()
    const known = await attempt(ROOT.username, 'wrong-password', '203.0.113.1')
    const unknown = await attempt('nobody-here', 'wrong-password', '203.0.113.1')
    expect([unknown.status, unknown.body.message]).toEqual([known.status, known.body.message])
    for (let i = 0; i < FAILURE_LIMIT; i++) await attempt('nobody-here', 'x', `203.0.113.${i + 2}`)
    expect((await attempt('nobody-here', 'x', '203.0.113.99')).status).toBe(429)
    expect(await verifyOrDummy('anything', undefined)).toBe(false)
    expect(await verifyOrDummy('anything', '')).toBe(false)
  })

  it('groups IPv6 addresses by /64 for per-IP limits', () => {
    expect(ipBucket('2001:db8:1:2:aaaa::1')).toBe(ipBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    expect(ipBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(ipBucket('2001:db8:1:3::1')).not.toBe(ipBucket('2001:db8:1:2::1'))
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7')
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(ipBucket('not-an-ip')).toBe('not-an-ip')
  })
})
