/**
 * The console's gateway origin (api-origin.ts): VITE_API_ORIGIN parsing, gateway URLs, and a
 * console built for another origin sending its cookie, fetching a CSRF token before its first change
 * and echoing the token the gateway sent in its header.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiOriginOf, apiUrl } from './api-origin'

describe('VITE_API_ORIGIN', () => {
  it('keeps an http(s) origin with its path and drops what cannot be one', () => {
    expect(apiOriginOf('https://api.example.com/')).toBe('https://api.example.com')
    expect(apiOriginOf(' https://api.example.com/gw/ ')).toBe('https://api.example.com/gw')
    expect(apiOriginOf('')).toBe('')
    expect(apiOriginOf(undefined)).toBe('')
    expect(apiOriginOf('api.example.com')).toBe('')
    expect(apiOriginOf('javascript:alert(1)')).toBe('')
  })

  it('prefixes gateway paths with it, else stays on the page base', () => {
    expect(apiUrl('/api/status', 'https://api.example.com')).toBe('https://api.example.com/api/status')
    expect(apiUrl('/v1/models', '')).toBe('/v1/models')
  })
})

describe('a console built for another origin', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('sends the cookie along, asks for a CSRF token before its first change and echoes the header token', async () => {
    vi.stubEnv('VITE_API_ORIGIN', 'https://api.example.com')
    vi.stubGlobal('document', { cookie: '', querySelector: () => null })
    const calls: { url: string; init: RequestInit }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init })
        return new Response(JSON.stringify({ success: true, message: '', data: {} }), { headers: { 'x-xsrf-token': 'tok-1' } })
      })
    )
    vi.resetModules()
    const { api } = await import('./api-client')
    await api.post('/api/user/logout')
    expect(calls.map((c) => [c.url, c.init.credentials])).toEqual([
      ['https://api.example.com/api/status', 'include'],
      ['https://api.example.com/api/user/logout', 'include'],
    ])
    expect((calls[1]!.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok-1')
    await api.put('/api/user/self', { display_name: 'x' })
    expect(calls).toHaveLength(3)
    expect((calls[2]!.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok-1')
  })
})
