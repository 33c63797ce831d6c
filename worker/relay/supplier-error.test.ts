/** Supplier error text (security finding 14): key-like strings are redacted, channel-side failures answered generically. */
import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../lib/redact'
import { supplierMessage } from './supplier-error'

describe('supplier error text', () => {
  it('redacts key-like strings', () => {
    const text = [
      'Incorrect API key provided: sk-proj-abc123DEF456ghi789. You can find your API key at https://platform.openai.com.',
      'masked sk-proj-…abcd and sk-ant-api03-Zx9_yQ',
      'AWS AKIAIOSFODNN7EXAMPLE denied',
      'google AIzaSyA-1234567890abcdefghijklmnopqrstu invalid',
      'header Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig',
      'url https://gw.internal/v1?key=supersecretvalue&x=1',
      '{"api_key": "abcdef1234567890"}',
    ].join('\n')
    const out = redactSecrets(text)
    for (const secret of [
      'abc123DEF456ghi789',
      '…abcd',
      'api03-Zx9',
      'AKIAIOSFODNN7EXAMPLE',
      'AIzaSyA-1234567890',
      'eyJhbGciOiJIUzI1NiJ9',
      'supersecretvalue',
      'abcdef1234567890',
    ]) {
      expect(out).not.toContain(secret)
    }
    expect(out).toContain('Incorrect API key provided: sk-[redacted]')
    expect(out).toContain('Bearer [redacted]')
    expect(redactSecrets('The model `gpt-5` does not exist')).toBe('The model `gpt-5` does not exist')
  })

  it('answers channel-side failures generically with the code, client errors with the redacted text', () => {
    const leak = 'Incorrect API key provided: sk-proj-****abcd. Organization org-ACME-internal is disabled.'
    const auth = supplierMessage(401, leak, 'invalid_api_key')
    expect(auth).not.toContain('ACME')
    expect(auth).not.toContain('abcd')
    expect(auth).toContain('invalid_api_key')
    expect(supplierMessage(500, 'stack trace at http://10.0.0.3/internal')).not.toContain('10.0.0.3')
    expect(supplierMessage(429, 'org-ACME over limit', 'rate_limit_exceeded')).toMatch(/rate limited.*rate_limit_exceeded/)
    expect(supplierMessage(400, "Invalid value: 'x' for sk-proj-abcdefghijkl")).toBe("Invalid value: 'x' for sk-[redacted]")
  })
})
