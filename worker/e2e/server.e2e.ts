import { describe, expect, inject, it } from 'vitest'

describe('production-like server', () => {
  it('serves the API and the console from one origin', async () => {
    const base = inject('gatewayUrl')
    const status = await fetch(`${base}/api/status`)
    expect(status.status).toBe(200)
    expect(status.headers.get('x-request-id')).toBeTruthy()
    const body = (await status.json()) as { success: boolean; data: { setup_needed: boolean } }
    expect(body.success).toBe(true)
    const page = await fetch(`${base}/panel/dashboard`, { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<html/i)
  })

  it('answers unknown relay paths with the OpenAI error envelope', async () => {
    const res = await fetch(`${inject('gatewayUrl')}/v1/unknown-endpoint`, { method: 'POST' })
    expect(res.status).toBe(404)
    const body = (await res.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe('not_found_error')
  })
})

describe('security headers', () => {
  it('sends a strict CSP and frame rules on console pages and on the API', async () => {
    const base = inject('gatewayUrl')
    const page = await fetch(`${base}/login`, { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } })
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/)
    expect(page.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    const api = await fetch(`${base}/api/status`)
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
    expect(api.headers.get('content-security-policy')).toMatch(/default-src 'none'/)
    expect(api.headers.get('x-frame-options')).toBeTruthy()
  })
})
