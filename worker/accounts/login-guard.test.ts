/**
 * Brute force (security findings 9 and 14): failed passwords lock an account per client network
 * (IPv4 /24, IPv6 /64), so an attacker's network cannot lock the owner out from another; the
 * account as a whole locks only past a much higher ceiling over all networks. A lock holds even
 * for the right password; unknown usernames answer the same way, and per-IP limits group IPv6 by /64.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { ipBucket, ipNetwork } from '../lib/cidr'
import { ROOT, TestClient, setupRoot, signedInUser } from '../test/client'
import { ACCOUNT_FAILURE_LIMIT, FAILURE_LIMIT, recordLoginFailure, verifyOrDummy } from './login-guard'

const from = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } })

async function attempt(username: string, password: string, ip: string) {
  const client = new TestClient()
  await client.get('/api/status')
  return client.post('/api/user/login', { username, password }, from(ip))
}

describe('login guard', () => {
  it('locks an account from the network that failed, not from another', async () => {
    await setupRoot()
    await signedInUser('bystander')
    // Network A: addresses of one /24 count together.
    const statuses: number[] = []
    for (let i = 0; i < FAILURE_LIMIT + 5; i++) statuses.push((await attempt(ROOT.username, `wrong-${i}`, `203.0.113.${i + 1}`)).status)
    expect(statuses.slice(0, FAILURE_LIMIT)).toEqual(Array(FAILURE_LIMIT).fill(401))
    expect(statuses.slice(FAILURE_LIMIT)).toEqual(Array(5).fill(429))
    const lockedOut = await attempt(ROOT.username, ROOT.password, '203.0.113.200')
    expect(lockedOut.status).toBe(429)
    expect(lockedOut.body.message).toMatch(/try again in \d+ minute/)
    // Case does not make another account.
    expect((await attempt('ROOT', ROOT.password, '203.0.113.201')).status).toBe(429)
    // The owner on network B still signs in, and another account on network A too.
    expect((await attempt(ROOT.username, ROOT.password, '198.51.100.9')).status).toBe(200)
    expect((await attempt('bystander', 'user-password-1', '203.0.113.7')).status).toBe(200)
  })

  it('groups IPv6 failures by /64', async () => {
    await setupRoot()
    for (let i = 0; i < FAILURE_LIMIT; i++) expect((await attempt(ROOT.username, 'wrong', `2001:db8:7:1::${(i + 1).toString(16)}`)).status).toBe(401)
    expect((await attempt(ROOT.username, ROOT.password, '2001:db8:7:1:ffff::1')).status).toBe(429)
    expect((await attempt(ROOT.username, ROOT.password, '2001:db8:7:2::1')).status).toBe(200)
  })

  it('locks the account everywhere past the ceiling of failures from all networks together', async () => {
    await setupRoot()
    // Failures spread over many networks, each below its own limit.
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT - 1; i++) await recordLoginFailure(env, ROOT.username, `10.${i >> 8}.${i & 255}.1`)
    expect((await attempt(ROOT.username, ROOT.password, '198.51.100.20')).status).toBe(200)
    expect((await attempt(ROOT.username, 'wrong', '198.51.100.21')).status).toBe(401)
    const right = await attempt(ROOT.username, ROOT.password, '192.0.2.1')
    expect(right.status).toBe(429)
    expect(right.body.message).toMatch(/try again in \d+ minute/)
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

  it('groups IPv6 addresses by /64 for per-IP limits, and networks by /24 and /64', () => {
    expect(ipBucket('2001:db8:1:2:aaaa::1')).toBe(ipBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    expect(ipBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(ipBucket('2001:db8:1:3::1')).not.toBe(ipBucket('2001:db8:1:2::1'))
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7')
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(ipBucket('not-an-ip')).toBe('not-an-ip')
    expect(ipNetwork('203.0.113.7')).toBe('203.0.113.0/24')
    expect(ipNetwork('::ffff:203.0.113.7')).toBe('203.0.113.0/24')
    expect(ipNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(ipNetwork('unknown')).toBe('unknown')
  })
})
