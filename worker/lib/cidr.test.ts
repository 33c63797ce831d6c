import { describe, expect, it } from 'vitest'
import { ipAllowed, isValidIpOrCidr } from './cidr'

describe('ip whitelist', () => {
  it('matches exact addresses and CIDR ranges for IPv4 and IPv6', () => {
    expect(ipAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true)
    expect(ipAllowed('11.1.2.3', ['10.0.0.0/8'])).toBe(false)
    expect(ipAllowed('192.168.1.7', ['192.168.1.7'])).toBe(true)
    expect(ipAllowed('192.168.1.8', ['192.168.1.7'])).toBe(false)
    expect(ipAllowed('2001:db8::1', ['2001:db8::/32'])).toBe(true)
    expect(ipAllowed('2001:db9::1', ['2001:db8::/32'])).toBe(false)
    expect(ipAllowed('::1', ['::1'])).toBe(true)
    expect(ipAllowed('0.0.0.1', ['0.0.0.0/0'])).toBe(true)
    expect(ipAllowed('1.2.3.4', ['::/0'])).toBe(false)
  })
  it('validates entries', () => {
    expect(isValidIpOrCidr('10.0.0.0/8')).toBe(true)
    expect(isValidIpOrCidr('10.0.0.0/33')).toBe(false)
    expect(isValidIpOrCidr('300.1.1.1')).toBe(false)
    expect(isValidIpOrCidr('2001:db8::/129')).toBe(false)
    expect(isValidIpOrCidr('fe80::1')).toBe(true)
    expect(isValidIpOrCidr('hello')).toBe(false)
  })
})
