/**
 * Client address (issue 12): proxy headers are believed only when the operator names one in
 * CLIENT_IP_HEADER; a spoofed X-Real-IP cannot pass a token's IP whitelist or pick a rate-limit bucket.
 */
import { describe, expect, it } from 'vitest'
import { createToken, createUser, send } from '../test/factories'
import { clientIp } from './client-ip'

const headers = (h: Record<string, string>) => ({ header: (name: string) => h[name.toLowerCase()] })
/** Env variables naming a trusted proxy header (lib/env.ts parses them once per object). */
const proxy = (name: string) => ({ CLIENT_IP_HEADER: name })

describe('clientIp', () => {
  it('uses the connection address and ignores proxy headers by default', () => {
    expect(clientIp(headers({ 'cf-connecting-ip': '203.0.113.5', 'x-real-ip': '10.0.0.1', 'x-forwarded-for': '10.0.0.2' }))).toBe('203.0.113.5')
    expect(clientIp(headers({ 'x-real-ip': '10.0.0.1' }))).toBe('127.0.0.1')
    expect(clientIp(headers({ 'cf-connecting-ip': 'not-an-address' }))).toBe('unknown')
    expect(clientIp(headers({ 'cf-connecting-ip': '2001:db8::7' }))).toBe('2001:db8::7')
  })

  it('believes the proxy header the operator names', () => {
    const forwarded = proxy('X-Forwarded-For')
    expect(clientIp(headers({ 'cf-connecting-ip': '127.0.0.1', 'x-forwarded-for': '198.51.100.1, 203.0.113.9' }), forwarded)).toBe('203.0.113.9')
    expect(clientIp(headers({ 'cf-connecting-ip': '127.0.0.1' }), forwarded)).toBe('127.0.0.1')
    const realIp = proxy('x-real-ip')
    expect(clientIp(headers({ 'cf-connecting-ip': '127.0.0.1', 'x-real-ip': '203.0.113.7' }), realIp)).toBe('203.0.113.7')
    expect(clientIp(headers({ 'x-real-ip': 'garbage' }), realIp)).toBe('unknown')
    // Only proxy headers can be named: an arbitrary client header is a misconfiguration, refused.
    expect(() => clientIp(headers({ 'cf-connecting-ip': '203.0.113.5', 'x-client-chosen': '10.0.0.1' }), proxy('x-client-chosen'))).toThrow(/CLIENT_IP_HEADER/)
  })

  it('takes the variables of the request when given (the setup gate passes its env)', () => {
    expect(clientIp(headers({ 'cf-connecting-ip': '127.0.0.1', 'x-real-ip': '203.0.113.9' }), { CLIENT_IP_HEADER: 'X-Real-IP' })).toBe('203.0.113.9')
    expect(clientIp(headers({ 'cf-connecting-ip': '10.1.2.3' }), {})).toBe('10.1.2.3')
  })

  it('a spoofed X-Real-IP does not pass a token IP whitelist', async () => {
    const user = await createUser({ quota: 1000 })
    const token = await createToken(user.id, { ips: ['10.1.0.0/16'] })
    const spoofed = await send('/v1/models', { key: token.key, headers: { 'x-real-ip': '10.1.2.3' } })
    expect(spoofed.status).toBe(403)
    expect(spoofed.json.error.code).toBe('ip_not_allowed')
    expect((await send('/v1/models', { key: token.key, headers: { 'cf-connecting-ip': '10.1.2.3' } })).status).toBe(200)
  })
})
